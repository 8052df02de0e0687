package hongbao.core.grab;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.PacketType;
import hongbao.core.split.AtGrabSplit;
import hongbao.core.split.SplitOptions;
import hongbao.core.split.SplitPolicy;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Splits a funded packet and puts it into the grab store. Arming is idempotent in the store, so it
 * is safe to retry from any instance at any time.
 */
public final class Arming {

  private static final System.Logger LOG = System.getLogger(Arming.class.getName());

  private final GrabStore store;
  private final PacketStore packets;
  private final SplitPolicy lucky;
  private final SplitPolicy fixed;
  private final Supplier<RandomGenerator> randomness;
  private final Clock clock;

  public Arming(
      GrabStore store,
      PacketStore packets,
      SplitPolicy lucky,
      SplitPolicy fixed,
      Supplier<RandomGenerator> randomness,
      Clock clock) {
    this.store = store;
    this.packets = packets;
    this.lucky = lucky;
    this.fixed = fixed;
    this.randomness = randomness;
    this.clock = clock;
  }

  /** Arms the packet and records that it is armed. Store faults propagate. */
  public void arm(Packet packet) {
    store.arm(armed(packet), clock.instant());
    packets.markArmed(packet.id());
  }

  private ArmedPacket armed(Packet packet) {
    SplitPolicy policy = packet.type() == PacketType.FIXED ? fixed : lucky;
    if (policy instanceof AtGrabSplit atGrab) {
      long cap = atGrab.capFen() == SplitOptions.NO_CAP ? 0 : atGrab.capFen();
      return ArmedPacket.splitAtGrab(packet, cap);
    }
    long[] shares = policy.split(packet.amount().fen(), packet.count(), randomness.get());
    List<Amount> amounts = Arrays.stream(shares).mapToObj(Amount::fen).toList();
    return new ArmedPacket(packet, amounts);
  }

  /** Arms the packet, leaving a failure to the re-armer: the money is already safe in escrow. */
  public void armQuietly(Packet packet) {
    try {
      arm(packet);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING, "arming packet " + packet.id() + " failed; the re-armer will retry", e);
    }
  }
}

package hongbao.core.grab;

import hongbao.core.Unavailable;
import hongbao.core.activity.ActivityGrabs;
import hongbao.core.money.Amount;
import hongbao.core.packet.GrabView;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.PacketType;
import hongbao.core.password.PasswordLock;
import hongbao.core.password.Pronunciation;
import hongbao.core.split.AtGrabSplit;
import hongbao.core.split.SplitOptions;
import hongbao.core.split.SplitPolicy;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Splits a funded packet and puts it into the grab store. Arming is idempotent in the store, so it
 * is safe to retry from any instance at any time.
 *
 * <p>The ledger is the truth and the store is rebuilt from it: {@link #rearm} (used whenever the
 * store may have lost the packet) reads the grabs the ledger has paid, records them as taken, and
 * splits only what is left over the shares left. So a lost packet never sells a paid share again,
 * and its paid grabbers keep their answer.
 *
 * <p>A 口令 packet is armed with its lock: the key, the mode and how the phrase sounds, so that any
 * instance matches a grab's phrase without the ledger. A packet of an activity is armed with the
 * activity's limit, after the activity's counts in the store have been rebuilt from the ledger if
 * the store lost them; a rebuilt packet's restored grabs count for their users too.
 *
 * <p>Arming that finds another packet's state under the id (the ledger was restored from a backup
 * and handed the id out again) holds both: the stale state answers HELD and the packet is marked
 * held in the ledger, refunded whole at expiry, and reported.
 */
public final class Arming {

  private static final System.Logger LOG = System.getLogger(Arming.class.getName());

  private final GrabStore store;
  private final PacketStore packets;
  private final SplitPolicy lucky;
  private final SplitPolicy fixed;
  private final Supplier<RandomGenerator> randomness;
  private final Clock clock;
  private final Pronunciation pronunciation;
  private final ActivityGrabs activities;

  public Arming(
      GrabStore store,
      PacketStore packets,
      SplitPolicy lucky,
      SplitPolicy fixed,
      Supplier<RandomGenerator> randomness,
      Clock clock,
      Pronunciation pronunciation,
      ActivityGrabs activities) {
    this.store = store;
    this.packets = packets;
    this.lucky = lucky;
    this.fixed = fixed;
    this.randomness = randomness;
    this.clock = clock;
    this.pronunciation = pronunciation;
    this.activities = activities;
  }

  /** Arms a packet just sent (nothing can have been paid yet). Store faults propagate. */
  public void arm(Packet packet) {
    armWith(packet, List.of());
  }

  /**
   * Arms a packet the store may have lost, rebuilding it from the ledger's paid grabs. Store and
   * ledger faults propagate.
   */
  public void rearm(Packet packet) {
    List<GrabRecord> paid = new ArrayList<>();
    for (GrabView grab : packets.paidGrabViews(packet.id())) {
      paid.add(new GrabRecord(grab.userId(), grab.amount(), grab.at(), paid.size() + 1));
    }
    armWith(packet, paid);
  }

  /**
   * Puts every grab the ledger has paid in the activity back into the store's counts (after the
   * store restarted and may have lost some of them).
   */
  public void restoreActivity(long activityId, Instant expiresAt) {
    activities.restore(activityId, expiresAt);
  }

  private void armWith(Packet packet, List<GrabRecord> paid) {
    int limit = 0;
    if (packet.activityId() != 0) {
      limit = activities.maxGrabsPerUser(packet.activityId());
      activities.ensurePresent(packet.activityId(), packet.expiresAt());
    }
    ArmResult result = store.arm(armed(packet, paid, limit), clock.instant());
    switch (result) {
      case ArmResult.Armed armed -> packets.markArmed(packet.id());
      case ArmResult.TooLate tooLate -> {}
      case ArmResult.Existing existing -> {
        if (existing.count() == 0 || isThisPacket(existing, packet)) {
          packets.markArmed(packet.id());
        } else {
          hold(packet, existing);
        }
      }
    }
  }

  private static boolean isThisPacket(ArmResult.Existing existing, Packet packet) {
    return existing.total().equals(packet.amount())
        && existing.count() == packet.count()
        && existing.createdAt().toEpochMilli() == packet.createdAt().toEpochMilli();
  }

  private void hold(Packet packet, ArmResult.Existing existing) {
    String reason =
        "the grab store holds another packet's state under id %d (%s in %d shares, created %s)"
            .formatted(packet.id(), existing.total(), existing.count(), existing.createdAt());
    LOG.log(Level.ERROR, "holding packet " + packet.id() + ": " + reason);
    store.hold(packet.id(), existing.createdAt());
    packets.markHeld(packet.id(), reason);
  }

  private ArmedPacket armed(Packet packet, List<GrabRecord> paid, int limit) {
    PasswordLock lock =
        packet.hasPassword()
            ? PasswordLock.of(packet.passwordKey(), packet.passwordMatch(), pronunciation)
            : null;
    SplitPolicy policy = packet.type() == PacketType.FIXED ? fixed : lucky;
    if (policy instanceof AtGrabSplit atGrab) {
      long cap = atGrab.capFen() == SplitOptions.NO_CAP ? 0 : atGrab.capFen();
      return new ArmedPacket(packet, List.of(), true, cap, paid, lock, limit);
    }
    Amount paidSum = paid.stream().map(GrabRecord::amount).reduce(Amount.ZERO, Amount::plus);
    long left = packet.amount().minus(paidSum).fen();
    int sharesLeft = packet.count() - paid.size();
    List<Amount> shares =
        sharesLeft == 0
            ? List.of()
            : Arrays.stream(policy.split(left, sharesLeft, randomness.get()))
                .mapToObj(Amount::fen)
                .toList();
    return new ArmedPacket(packet, shares, false, 0, paid, lock, limit);
  }

  /**
   * Arms the packet, leaving an outage to the re-armer: the money is already safe in escrow. A bug
   * still propagates.
   */
  public void armQuietly(Packet packet) {
    try {
      arm(packet);
    } catch (Unavailable e) {
      LOG.log(
          Level.WARNING, "arming packet " + packet.id() + " failed; the re-armer will retry", e);
    }
  }
}

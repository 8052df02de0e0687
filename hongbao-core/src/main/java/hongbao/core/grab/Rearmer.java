package hongbao.core.grab;

import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Finds paid-for packets that never got armed (the store was down right after the commit, or the
 * instance died) and arms them. A grace period keeps it from racing a send still in flight; racing
 * it would be harmless anyway, arming being idempotent.
 */
public final class Rearmer {

  private final PacketStore packets;
  private final Arming arming;
  private final Clock clock;
  private final Duration grace;
  private final int batchSize;

  public Rearmer(PacketStore packets, Arming arming, Clock clock, Duration grace, int batchSize) {
    this.packets = packets;
    this.arming = arming;
    this.clock = clock;
    this.grace = grace;
    this.batchSize = batchSize;
  }

  /** Arms one batch of unarmed packets; returns how many it armed. */
  public int rearmOnce() {
    Instant now = clock.instant();
    List<Packet> unarmed = packets.unarmed(now.minus(grace), now, batchSize);
    for (Packet packet : unarmed) {
      arming.arm(packet);
    }
    return unarmed.size();
  }
}

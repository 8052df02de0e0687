package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.details.DetailsService;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.money.Amount;
import hongbao.core.packet.PacketDetails;
import hongbao.core.packet.PacketStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Instances' clocks differ a little. A sweeper on an instance whose clock is ahead closes a packet
 * and refunds its remainder; an instance whose clock is behind, where the packet has not yet
 * reached its expiry, shows its details: the refund is there, and so the packet has expired.
 */
class DetailsClockTest {

  private final World world = new World(13, LedgerVariant.of("faithful")::create);

  @AfterEach
  void booksBalance() {
    assertThat(world.auditor().reconcile().discrepancies()).isEmpty();
  }

  @Test
  void aPacketRefundedByAnInstanceWhoseClockIsAhead_isExpired_onOneWhoseClockIsBehind() {
    long packet = world.aliceSendsFixed(300, 3);
    assertThat(world.grab.grab(packet, "bob", null).toCompletableFuture().join())
        .isInstanceOf(GrabOutcome.Grabbed.class);
    world.clock.advance(Duration.ofSeconds(601));
    assertThat(world.sweepers.getFirst().sweepOnce()).isEqualTo(1);
    for (int round = 0; round < 5; round++) {
      world.workers.getFirst().worker().payOnce();
    }

    Clock behind = Clock.fixed(world.clock.instant().minusSeconds(2), ZoneOffset.UTC);
    PacketDetails details = new DetailsService(world.packets, world.store, behind).details(packet);

    assertThat(details.refundedAmount()).isEqualTo(Amount.fen(200));
    assertThat(details.status()).isEqualTo(PacketStatus.EXPIRED);
    assertThat(details.bestLuck()).as("shown once the packet is over").isNotNull();
  }
}

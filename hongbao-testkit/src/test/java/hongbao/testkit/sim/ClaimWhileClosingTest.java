package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import hongbao.core.Unavailable;
import hongbao.core.expiry.ExpirySweeper;
import hongbao.core.grab.ClaimOutcome;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabReceipt;
import hongbao.core.ledger.Ledger;
import hongbao.core.money.Amount;
import hongbao.core.payout.PayoutTask;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A packet of three shares that the grab store lost whole before its expiry: Bob's grab was paid,
 * Carol's payout dead-lettered, waiting for an operator's retry. The sweeper closes it from the
 * ledger (300 fen, less Bob's 100 paid and Carol's 100 owed: 100 go back to Alice). Dave presents
 * the receipt of a grab the store lost with its payout, and his claim is weighed after that close
 * but before its refund. Paid from the escrow, it would take the 100 fen the refund then gives
 * Alice too, and Carol's retried payout would find the escrow empty: refused for good. The escrow
 * pays no claim between a sweeper's claim of the packet and its refund: Dave is told to try again,
 * and tried again he is refused (the escrow holds only what Carol is owed) and reported, Alice gets
 * the remainder the close counted and Carol her share.
 */
class ClaimWhileClosingTest {

  private final World world = new World(13, LedgerVariant.of("faithful")::create);

  @Test
  void claim_betweenTheCloseAndItsRefund_waitsForTheRefund_andTheDeadLetteredPayoutStillPays() {
    Object beforeTheSend = world.store.snapshot();
    long packet = world.aliceSendsFixed(300, 3);
    assertThat(world.grab.grab(packet, "bob", null).toCompletableFuture().join())
        .isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(world.workers.getFirst().worker().payOnce()).isEqualTo(1);
    assertThat(world.grab.grab(packet, "carol", null).toCompletableFuture().join())
        .isInstanceOf(GrabOutcome.Grabbed.class);
    List<PayoutTask> held = world.queue.poll("stalled", 10, Duration.ZERO);
    assertThat(held).extracting(PayoutTask::userId).containsExactly("carol");
    world.queue.deadLetter(held.getFirst(), "a wallet refused it");
    world.store.restartLosing(beforeTheSend);
    world.clock.advance(Duration.ofSeconds(601));

    var daves = new AtomicReference<Throwable>();
    sweeperWith(
            Interleaved.before(
                Ledger.class,
                world.ledger,
                "refund",
                () -> daves.set(catchThrowable(() -> davesClaim(packet)))))
        .sweepOnce();

    assertThat(daves.get())
        .as("the packet was being closed when Dave's claim was weighed")
        .isInstanceOf(Unavailable.class)
        .hasMessageContaining("being closed at its expiry");
    assertThat(world.packets.refunded(packet)).isEqualTo(Amount.fen(100));
    assertThat(davesClaim(packet))
        .as("weighed again after the refund: the escrow holds only what Carol is owed")
        .isInstanceOf(ClaimOutcome.Refused.class);

    assertThat(world.queue.redrive(world.queue.deadLetters(10).getFirst().id())).isTrue();
    for (int round = 0; round < 5; round++) {
      world.workers.getFirst().worker().payOnce();
    }
    assertThat(world.queue.unacknowledged()).isEmpty();
    assertThat(world.queue.deadLetters(10)).as("Carol's retried payout is paid").isEmpty();
    assertThat(world.packets.paidGrabs(packet))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("bob", Amount.fen(100), "carol", Amount.fen(100)));
    assertThat(world.auditor().reconcile().discrepancies())
        .as("the books balance; Dave's refusal is named, for an operator to answer")
        .singleElement()
        .asString()
        .startsWith("packet " + packet + ": receipt of dave for 100 fen refused: ");
  }

  private ClaimOutcome davesClaim(long packet) {
    return new ClaimService(
            new OneReceipt(
                new GrabReceipt(packet, "dave", Amount.fen(100), 3, World.START.plusSeconds(1))),
            world.packets,
            world.store,
            world.arming,
            world.ledger,
            world.clock)
        .claim(packet, "dave", "receipt");
  }

  private ExpirySweeper sweeperWith(Ledger ledger) {
    return new ExpirySweeper(world.packets, world.store, ledger, world.repair, world.clock, 10);
  }
}

package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ClaimOutcome;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabReceipt;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The grab store loses a grab with its payout task, two more users take the packet's two shares
 * while payouts wait, and the packet expires: the close refunds nothing (every share it knows of is
 * taken) and leaves in the escrow exactly what the two recorded grabs are owed. The lost grab's
 * receipt then comes in. Paid from the escrow, it would take one of the recorded grabber's money,
 * whose payout the ledger would then refuse. It is refused instead, and the reconciler names
 * exactly that receipt: the one grab the loss destroyed.
 */
class ClaimAfterRefundTest {

  private final World world = new World(11, LedgerVariant.of("faithful")::create);

  @Test
  void aReceiptOfAGrabTheStoreLost_afterTheCloseRefundedWithoutIt_isRefused_andNamed() {
    long packet = world.aliceSendsFixed(200, 2);
    Object storeBefore = world.store.snapshot();
    Object queueBefore = world.queue.snapshot();
    GrabOutcome bobs = world.grab.grab(packet, "bob", null).toCompletableFuture().join();
    assertThat(bobs).isInstanceOf(GrabOutcome.Grabbed.class);
    var grabbed = (GrabOutcome.Grabbed) bobs;
    world.store.restartLosing(storeBefore);
    world.queue.restore(queueBefore);

    world.switches.set(Switch.PAYOUTS, false);
    for (String user : new String[] {"carol", "dave"}) {
      assertThat(world.grab.grab(packet, user, null).toCompletableFuture().join())
          .isInstanceOf(GrabOutcome.Grabbed.class);
    }
    world.clock.advance(Duration.ofSeconds(601));
    assertThat(world.sweepers.getFirst().sweepOnce()).isEqualTo(1);

    var claims =
        new ClaimService(
            new OneReceipt(
                new GrabReceipt(packet, "bob", grabbed.amount(), grabbed.seq(), World.START)),
            world.packets,
            world.store,
            world.arming,
            world.ledger,
            world.clock);
    assertThat(claims.claim(packet, "bob", "receipt")).isInstanceOf(ClaimOutcome.Refused.class);

    world.switches.set(Switch.PAYOUTS, true);
    for (int round = 0; round < 5; round++) {
      world.workers.getFirst().worker().payOnce();
    }
    assertThat(world.packets.paidGrabs(packet))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("carol", Amount.fen(100), "dave", Amount.fen(100)));
    assertThat(world.queue.deadLetters(10)).isEmpty();
    assertThat(world.auditor().reconcile().discrepancies())
        .singleElement()
        .asString()
        .startsWith("packet " + packet + ": receipt of bob for 100 fen refused: ");
  }
}

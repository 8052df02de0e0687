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
    GrabOutcome.Grabbed bobs = lostGrab_thenClosed(packet);

    assertThat(claims(packet, bobs).claim(packet, "bob", "receipt"))
        .isInstanceOf(ClaimOutcome.Refused.class);

    paysTheRecordedGrabs_andNamesOnlyTheReceipt(packet);
  }

  /**
   * As above, with the claim coming once the closed packet's keys have aged out of the store while
   * the recorded grabs' payouts still wait: the store no longer tells that the packet closed with
   * its grabs recorded, and the ledger alone would pay it from a recorded grab's money. What the
   * waiting payouts are owed is kept for them.
   */
  @Test
  void aReceiptOfAGrabTheStoreLost_afterTheClosedPacketsKeysAgedOut_isRefused_andNamed() {
    long packet = world.aliceSendsFixed(200, 2);
    GrabOutcome.Grabbed bobs = lostGrab_thenClosed(packet);
    world.clock.advance(world.keyGrace.plusMinutes(1));
    assertThat(world.store.state(packet)).isEmpty();

    assertThat(claims(packet, bobs).claim(packet, "bob", "receipt"))
        .isInstanceOf(ClaimOutcome.Refused.class);

    paysTheRecordedGrabs_andNamesOnlyTheReceipt(packet);
  }

  /**
   * The store lost a grab with its task, then the packet's state aged out while another grab's
   * payout sat dead-lettered: the receipt does not take the dead letter's money, whose retry would
   * pay it. Once the store has lost the dead letter too, nothing is known to be owed to another
   * grab, and a receipt the escrow can cover is paid: the receipts are then the only record, and of
   * two for the last share one is paid and the other refused and named.
   */
  @Test
  void aReceipt_isPaidFromTheEscrow_onlyBeyondWhatTheDeadLettersAreOwed() {
    Object emptyQueue = world.queue.snapshot();
    long packet = world.aliceSendsFixed(300, 3);
    GrabOutcome.Grabbed bobs = lostGrab_thenClosed(packet);
    var carolsTask =
        world.queue.unacknowledged().stream()
            .filter(t -> t.packetId() == packet && t.userId().equals("carol"))
            .findFirst()
            .orElseThrow();
    world.queue.deadLetter(carolsTask, "refused for the drill");
    world.switches.set(Switch.PAYOUTS, true);
    for (int round = 0; round < 5; round++) {
      world.workers.getFirst().worker().payOnce();
    }
    world.clock.advance(world.keyGrace.plusMinutes(1));
    assertThat(world.store.state(packet)).isEmpty();
    // Left: 100 fen refunded at the close, 100 paid to dave, 100 owed to carol's dead letter.
    assertThat(claims(packet, bobs).claim(packet, "bob", "receipt"))
        .isInstanceOf(ClaimOutcome.Refused.class);
    assertThat(world.packets.paidGrabs(packet)).doesNotContainKey("bob");

    world.queue.restore(emptyQueue);
    assertThat(claims(packet, bobs).claim(packet, "bob", "receipt"))
        .isEqualTo(new ClaimOutcome.Paid(Amount.fen(100)));
    var carols =
        new ClaimService(
            new OneReceipt(new GrabReceipt(packet, "carol", carolsTask.amount(), 1, World.START)),
            world.packets,
            world.store,
            world.arming,
            world.ledger,
            world.clock);
    assertThat(carols.claim(packet, "carol", "receipt")).isInstanceOf(ClaimOutcome.Refused.class);
    assertThat(world.auditor().reconcile().discrepancies())
        .singleElement()
        .asString()
        .startsWith("packet " + packet + ": receipt of carol for 100 fen refused: ");
  }

  /** Bob's grab is lost with its task, carol and dave take shares, payouts off, then closed. */
  private GrabOutcome.Grabbed lostGrab_thenClosed(long packet) {
    Object storeBefore = world.store.snapshot();
    Object queueBefore = world.queue.snapshot();
    GrabOutcome bobs = world.grab.grab(packet, "bob", null).toCompletableFuture().join();
    assertThat(bobs).isInstanceOf(GrabOutcome.Grabbed.class);
    world.store.restartLosing(storeBefore);
    world.queue.restore(queueBefore);

    world.switches.set(Switch.PAYOUTS, false);
    for (String user : new String[] {"carol", "dave"}) {
      assertThat(world.grab.grab(packet, user, null).toCompletableFuture().join())
          .isInstanceOf(GrabOutcome.Grabbed.class);
    }
    world.clock.advance(Duration.ofSeconds(601));
    assertThat(world.sweepers.getFirst().sweepOnce()).isEqualTo(1);
    return (GrabOutcome.Grabbed) bobs;
  }

  private ClaimService claims(long packet, GrabOutcome.Grabbed bobs) {
    return new ClaimService(
        new OneReceipt(new GrabReceipt(packet, "bob", bobs.amount(), bobs.seq(), World.START)),
        world.packets,
        world.store,
        world.arming,
        world.ledger,
        world.clock);
  }

  private void paysTheRecordedGrabs_andNamesOnlyTheReceipt(long packet) {
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

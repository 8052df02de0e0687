package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ClaimOutcome;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabReceipt;
import hongbao.core.money.Amount;
import hongbao.core.packet.PacketStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A packet of three shares whose grab store lost it after expiry: Bob's and Carol's grabs are gone
 * from the store, their payouts still queued; Dave and Eve each present the receipt of a grab the
 * store lost too (their shares sold again after a loss, so four grabs name three shares). The
 * escrow has room beyond the queued payouts for one of them. Eve's claim is weighed and paid while
 * Dave's, having read the ledger before her payment, is about to pay: his must be refused, not paid
 * from the money Bob's and Carol's payouts are owed, leaving one of them refused for good.
 */
class RacingClaimsTest {

  private final World world = new World(11, LedgerVariant.of("faithful")::create);

  @Test
  void twoClaims_withRoomForOne_payOne_andTheQueuedPayoutsAllPay() {
    Object beforeTheSend = world.store.snapshot();
    long packet = world.aliceSendsFixed(300, 3);
    for (String user : new String[] {"bob", "carol"}) {
      assertThat(world.grab.grab(packet, user, null).toCompletableFuture().join())
          .isInstanceOf(GrabOutcome.Grabbed.class);
    }
    world.clock.advance(Duration.ofSeconds(601));
    world.store.restartLosing(beforeTheSend);

    var eves = new AtomicReference<ClaimOutcome>();
    ClaimService daves =
        claims(
            packet,
            "dave",
            Interleaved.before(
                PacketStore.class,
                world.packets,
                "refunded",
                () -> eves.set(claim(packet, "eve"))));

    assertThat(daves.claim(packet, "dave", "receipt"))
        .as("Eve was paid the room for one while Dave's claim was weighed")
        .isInstanceOf(ClaimOutcome.Refused.class);
    assertThat(eves.get()).isEqualTo(new ClaimOutcome.Paid(Amount.fen(100)));

    for (int round = 0; round < 5; round++) {
      world.workers.getFirst().worker().payOnce();
    }
    assertThat(world.queue.unacknowledged()).isEmpty();
    assertThat(world.queue.deadLetters(10)).as("no queued payout refused").isEmpty();
    assertThat(world.packets.paidGrabs(packet))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("bob", Amount.fen(100), "carol", Amount.fen(100), "eve", Amount.fen(100)));

    world.sweepers.getFirst().sweepOnce();
    assertThat(world.auditor().reconcile().discrepancies())
        .as("the books balance; Dave's refusal is named, for an operator to answer")
        .singleElement()
        .asString()
        .startsWith("packet " + packet + ": receipt of dave for 100 fen refused: ");
  }

  private ClaimOutcome claim(long packet, String user) {
    return claims(packet, user, world.packets).claim(packet, user, "receipt");
  }

  private ClaimService claims(long packet, String user, PacketStore packets) {
    return new ClaimService(
        new OneReceipt(
            new GrabReceipt(packet, user, Amount.fen(100), 1, World.START.plusSeconds(1))),
        packets,
        world.store,
        world.arming,
        world.ledger,
        world.clock);
  }
}

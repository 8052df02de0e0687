package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ClaimOutcome;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabReceipt;
import hongbao.core.grab.GrabStore;
import hongbao.core.money.Amount;
import hongbao.core.packet.PacketStore;
import hongbao.core.payout.PayoutTask;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The grab store loses a grab whose payout task a worker still holds, and the user claims it with
 * the receipt while the worker pays: the payment commits just after the claim read the ledger, so
 * the packet rebuilt from the ledger already has the grab. The claim must answer PAID (what the
 * ledger did), not RECORDED ("its payout is queued"), and pay nothing twice.
 */
class ClaimWhilePaidTest {

  private final World world = new World(7, LedgerVariant.of("faithful")::create);

  @AfterEach
  void booksBalance() {
    assertThat(world.auditor().reconcile().discrepancies()).isEmpty();
  }

  @Test
  void claim_ofAGrabPaidBetweenItsLedgerReadAndTheRearming_isPaid_once() {
    Object beforeTheSend = world.store.snapshot();
    long packet = world.aliceSendsFixed(600, 2);
    GrabOutcome grabbed = world.grab.grab(packet, "bob", null).toCompletableFuture().join();
    assertThat(grabbed).isInstanceOf(GrabOutcome.Grabbed.class);
    Amount share = ((GrabOutcome.Grabbed) grabbed).amount();
    world.store.restartLosing(beforeTheSend);

    var claims =
        new ClaimService(
            new OneReceipt(
                new GrabReceipt(
                    packet, "bob", share, ((GrabOutcome.Grabbed) grabbed).seq(), World.START)),
            payingAfterTheFirstRead(),
            world.store,
            world.arming,
            world.ledger,
            world.clock);

    assertThat(claims.claim(packet, "bob", "receipt")).isEqualTo(new ClaimOutcome.Paid(share));
    assertThat(claims.claim(packet, "bob", "receipt")).isEqualTo(new ClaimOutcome.Paid(share));
    assertThat(world.packets.paidGrabs(packet)).containsExactlyEntriesOf(Map.of("bob", share));
  }

  /**
   * The packet closed at its expiry with both its grabs recorded and their payouts waiting, and its
   * keys then aged out of the store. Bob claims his share just as the worker pays the two: the
   * claim finds his grab unpaid, then the packet's whole amount paid. His own payment among them,
   * the claim answers PAID, not a refusal of a grab the ledger just paid.
   */
  @Test
  void claim_ofAGrabPaidWhileTheClaimWeighsTheEscrow_isPaid() {
    long packet = world.aliceSendsFixed(200, 2);
    GrabOutcome.Grabbed bobs =
        (GrabOutcome.Grabbed) world.grab.grab(packet, "bob", null).toCompletableFuture().join();
    assertThat(world.grab.grab(packet, "carol", null).toCompletableFuture().join())
        .isInstanceOf(GrabOutcome.Grabbed.class);
    world.clock.advance(Duration.ofSeconds(601));
    world.sweepers.getFirst().sweepOnce();
    assertThat(world.packets.closedAmong(List.of(packet))).containsExactly(packet);
    world.clock.advance(world.keyGrace.plusMinutes(1));
    assertThat(world.store.state(packet)).isEmpty();

    var claims =
        new ClaimService(
            new OneReceipt(new GrabReceipt(packet, "bob", bobs.amount(), bobs.seq(), World.START)),
            world.packets,
            payingAsTheOwedAreRead(),
            world.arming,
            world.ledger,
            world.clock);

    assertThat(claims.claim(packet, "bob", "receipt"))
        .isEqualTo(new ClaimOutcome.Paid(Amount.fen(100)));
    assertThat(world.packets.paidGrabs(packet))
        .containsOnlyKeys("bob", "carol")
        .allSatisfy((user, paid) -> assertThat(paid).isEqualTo(Amount.fen(100)));
  }

  /**
   * Bob's payout was dead-lettered, and his claim, the packet's keys having aged out of the store,
   * was paid by the ledger directly; his dead letter stays until an operator clears it. Carol's
   * claim must not count that dead letter as money the escrow still owes: a retry of it pays
   * nothing (the ledger pays a grab once), and counted it would refuse her a share the escrow
   * holds.
   */
  @Test
  void claim_besideTheDeadLetterOfAGrabTheLedgerPaid_isPaid() {
    long packet = world.aliceSendsFixed(200, 2);
    GrabOutcome.Grabbed bobs =
        (GrabOutcome.Grabbed) world.grab.grab(packet, "bob", null).toCompletableFuture().join();
    GrabOutcome.Grabbed carols =
        (GrabOutcome.Grabbed) world.grab.grab(packet, "carol", null).toCompletableFuture().join();
    List<PayoutTask> held = world.queue.poll("stalled", 10, Duration.ZERO);
    assertThat(held).extracting(PayoutTask::userId).containsExactlyInAnyOrder("bob", "carol");
    world.queue.deadLetter(
        held.stream().filter(t -> t.userId().equals("bob")).findFirst().orElseThrow(),
        "a wallet refused it");
    world.clock.advance(Duration.ofSeconds(601));
    world.sweepers.getFirst().sweepOnce();
    world.clock.advance(world.keyGrace.plusMinutes(1));
    assertThat(world.store.state(packet)).isEmpty();

    assertThat(claimsOf(packet, "bob", bobs).claim(packet, "bob", "receipt"))
        .as("the escrow holds bob's share beside carol's waiting payout")
        .isEqualTo(new ClaimOutcome.Paid(Amount.fen(100)));
    assertThat(claimsOf(packet, "carol", carols).claim(packet, "carol", "receipt"))
        .as("bob's dead letter owes nothing: the ledger paid his grab")
        .isEqualTo(new ClaimOutcome.Paid(Amount.fen(100)));

    // The operator retries the dead letter and the stalled payout is reclaimed: both pay nothing.
    assertThat(world.queue.deadLetters(10)).hasSize(1);
    assertThat(world.queue.redrive(world.queue.deadLetters(10).getFirst().id())).isTrue();
    world.clock.advance(world.reclaimIdle.plusSeconds(1));
    world.workers.getFirst().worker().reclaimOnce();
    for (int round = 0; round < 5; round++) {
      world.workers.getFirst().worker().payOnce();
    }
    assertThat(world.queue.unacknowledged()).isEmpty();
    assertThat(world.queue.deadLetters(10)).isEmpty();
    assertThat(world.packets.paidGrabs(packet))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("bob", Amount.fen(100), "carol", Amount.fen(100)));
  }

  private ClaimService claimsOf(long packet, String user, GrabOutcome.Grabbed grabbed) {
    return new ClaimService(
        new OneReceipt(new GrabReceipt(packet, user, grabbed.amount(), grabbed.seq(), World.START)),
        world.packets,
        world.store,
        world.arming,
        world.ledger,
        world.clock);
  }

  /** The world's store, with the worker paying and acking everything as the owed are read. */
  private GrabStore payingAsTheOwedAreRead() {
    return Interleaved.before(
        GrabStore.class,
        world.store,
        "owedToOthers",
        () -> {
          int paid = 0;
          for (int round = 0; round < 5; round++) {
            paid += world.workers.getFirst().worker().payOnce();
          }
          assertThat(paid)
              .as("both waiting payouts are paid as the claim reads what they are owed")
              .isEqualTo(2);
        });
  }

  /**
   * The world's packets, with the worker paying everything right after the first paid-grabs read.
   */
  private PacketStore payingAfterTheFirstRead() {
    var reads = new AtomicInteger();
    return (PacketStore)
        Proxy.newProxyInstance(
            PacketStore.class.getClassLoader(),
            new Class<?>[] {PacketStore.class},
            (proxy, method, args) -> {
              Object result;
              try {
                result = method.invoke(world.packets, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              if (method.getName().equals("paidGrabs") && reads.incrementAndGet() == 1) {
                assertThat(world.workers.getFirst().worker().payOnce())
                    .as("the held task is paid just after the claim read the ledger")
                    .isEqualTo(1);
              }
              return result;
            });
  }
}

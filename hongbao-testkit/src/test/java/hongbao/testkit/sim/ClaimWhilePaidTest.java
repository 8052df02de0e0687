package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ClaimOutcome;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabReceipt;
import hongbao.core.money.Amount;
import hongbao.core.packet.PacketStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
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
    assertThat(world.packets.paidGrabs(packet))
        .containsExactlyEntriesOf(java.util.Map.of("bob", share));
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

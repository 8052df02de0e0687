package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.details.Boxes;
import hongbao.core.details.DetailsService;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabStore;
import hongbao.core.money.Amount;
import hongbao.core.wallet.WalletService;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A share is paid while a page is being read: the box and the wallet each read the ledger and the
 * store's pending index, and the payout (ledger commit, then ack) lands while the pending index is
 * being read. Whatever the order of the two reads, the share must show once: in the received box,
 * and as either balance or pendingAmount.
 */
class PayoutBetweenReadsTest {

  private final World world = new World(42, LedgerVariant.of("faithful")::create);

  /** The world's store, with a payout worker paying and acking everything as pending is read. */
  private final GrabStore payingWhileRead =
      (GrabStore)
          Proxy.newProxyInstance(
              GrabStore.class.getClassLoader(),
              new Class<?>[] {GrabStore.class},
              (proxy, method, args) -> {
                if (method.getName().equals("pendingOf")) {
                  assertThat(world.workers.getFirst().worker().payOnce())
                      .as("the share is paid during the read")
                      .isEqualTo(1);
                }
                try {
                  return method.invoke(world.store, args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              });

  @AfterEach
  void booksBalance() {
    assertThat(world.auditor().reconcile().discrepancies()).isEmpty();
  }

  @Test
  void receivedBox_showsAShare_paidWhileThePageIsRead() {
    long packet = sendAndGrabByBob();
    var boxes =
        new Boxes(
            world.packets,
            payingWhileRead,
            new DetailsService(world.packets, world.store, world.clock));

    Boxes.Page page = boxes.page(Boxes.Box.RECEIVED, "bob", null, 10);

    assertThat(page.items())
        .extracting(item -> item.details().packet().id())
        .containsExactly(packet);
  }

  @Test
  void wallet_countsAShare_paidWhileTheWalletIsRead_once() {
    sendAndGrabByBob();
    var wallets = new WalletService(world.ledger, payingWhileRead);

    WalletService.WalletView view = wallets.wallet("bob", 10);

    assertThat(view.wallet().balance().plus(view.pendingAmount())).isEqualTo(Amount.fen(300));
    assertThat(view.wallet().balance())
        .as("paid before the balance was read")
        .isEqualTo(Amount.fen(300));
  }

  private long sendAndGrabByBob() {
    long packet = world.aliceSendsFixed(300, 1);
    GrabOutcome outcome = world.grab.grab(packet, "bob", null).toCompletableFuture().join();
    assertThat(outcome).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(world.store.pendingOf("bob")).containsOnlyKeys(packet);
    return packet;
  }
}

package hongbao.app.drill;

import static hongbao.app.drill.Drills.decode;
import static hongbao.app.drill.Drills.grab;
import static hongbao.app.drill.Drills.paid;
import static hongbao.app.drill.Drills.sendFixed;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.Parts;
import hongbao.app.support.Api;
import hongbao.app.support.TestService;
import hongbao.app.workers.Workers;
import hongbao.core.money.Amount;
import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutWorker;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "repair-window": Redis restarts from an AOF cut back past grabs the ledger has already
 * paid, and new users grab before the repair puts those grabs back. Redis believes the forgotten
 * shares are still there and sells them again; the ledger, bounded by the escrow's constraints,
 * pays the packet's count and no more, and the payouts beyond it are refused and dead-lettered one
 * by one, with the reason.
 *
 * <p>The service runs without workers, so the repair cannot close the window on its own: payouts
 * and the repair run by hand, when the drill says. At the end the reconciler names what the fault
 * destroyed: the refused payouts (packet, user, amount), the paid grabs Redis forgot and the repair
 * can no longer put back (their shares went to others), and the packet whose store records count
 * the refused grabs instead of those, off by exactly the refused amount.
 */
class RepairWindowDrillTest {

  private static final int COUNT = 6;
  private static final long SHARE = 100;
  private static final long FUNDS = 10_000;

  private DrillRig rig;
  private TestService service;

  @BeforeEach
  void start() {
    rig = DrillRig.start("repair-window", Map.of(), false);
    service = rig.service;
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  @Test
  void sharesSoldAgainBeforeTheRepair_areRefusedByTheLedger_deadLetteredAndReported() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "rw-sender-" + run;
    List<String> kept = users(run, "kept", 2);
    List<String> forgotten = users(run, "forgotten", 2);
    List<String> late = users(run, "late", COUNT - kept.size());
    api.topUp(sender, FUNDS);
    String packet = sendFixed(api, sender, COUNT * SHARE, COUNT, 600);
    long id = decode(packet);
    PayoutWorker worker = Workers.payoutWorker(service.hongbao().config(), parts, "rw-worker");

    grabAll(api, kept, packet);
    assertThat(worker.payOnce()).isEqualTo(kept.size());
    long survivingBytes = rig.aofBytes();
    grabAll(api, forgotten, packet);
    assertThat(worker.payOnce()).isEqualTo(forgotten.size());
    assertThat(paid(parts, packet)).containsOnlyKeys(concat(kept, forgotten));

    rig.powerLoss(survivingBytes);

    // Redis remembers only the kept grabs: the forgotten shares are back in its pool.
    var restarted = parts.store().state(id).orElseThrow();
    assertThat(restarted.taken()).isEqualTo(kept.size());
    assertThat(restarted.available()).isEqualTo(Amount.fen((COUNT - kept.size()) * SHARE));

    // Before the repair, late users take every share Redis offers: the forgotten ones again.
    grabAll(api, late, packet);
    assertThat(grab(api, "rw-" + run + "-after-all", packet).getString("outcome"))
        .isEqualTo("SOLD_OUT");
    // One batch: refused as a whole, then paid one by one in grab order until the escrow's count
    // runs out; the rest are dead-lettered at once.
    assertThat(worker.payOnce()).isEqualTo(late.size());
    assertThat(parts.queue().backlog()).isZero();
    int soldTwice = forgotten.size();
    List<String> paidLate = late.subList(0, late.size() - soldTwice);
    List<String> refused = late.subList(late.size() - soldTwice, late.size());

    Map<String, Amount> paid = paid(parts, packet);
    assertThat(paid).containsOnlyKeys(concat(kept, forgotten, paidLate));
    assertThat(paid.values()).allMatch(Amount.fen(SHARE)::equals);
    assertThat(parts.database().audit().escrowBalance(id)).isEqualTo(Amount.ZERO);
    assertThat(parts.database().packets().refunded(id)).isEqualTo(Amount.ZERO);
    for (String user : concat(kept, forgotten, paidLate)) {
      assertWallet(user, SHARE);
    }
    for (String user : refused) {
      assertWallet(user, 0);
    }
    assertWallet(sender, FUNDS - COUNT * SHARE);

    List<DeadLetter> deadLetters = parts.queue().deadLetters(100);
    assertThat(deadLetters)
        .extracting(d -> d.task().userId())
        .containsExactlyInAnyOrderElementsOf(refused);
    assertThat(deadLetters)
        .allSatisfy(
            d -> {
              assertThat(d.task().packetId()).isEqualTo(id);
              assertThat(d.task().amount()).isEqualTo(Amount.fen(SHARE));
              assertThat(d.reason()).startsWith("the books refuse: an escrow would pay more");
            });
    List<String> expected = new ArrayList<>();
    for (DeadLetter dead : deadLetters) {
      expected.add(
          "packet %d: payout of %s to %s was dead-lettered: %s"
              .formatted(id, Amount.fen(SHARE), dead.task().userId(), dead.reason()));
    }
    for (String user : forgotten) {
      expected.add("packet %d: %s was paid without a recorded grab".formatted(id, user));
    }
    expected.add(
        "packet %d: amount %s != paid %s + unpaid %s + refunded 0 fen + available 0 fen"
            .formatted(
                id,
                Amount.fen(COUNT * SHARE),
                Amount.fen(COUNT * SHARE),
                Amount.fen(soldTwice * SHARE)));
    assertReconciliationNames(expected);

    // The repair comes: the forgotten grabs cannot be put back, their shares are taken.
    assertThat(parts.repair().checkOnce()).isZero();
    for (String user : concat(List.of("rw-" + run + "-after-repair"), forgotten)) {
      assertThat(grab(api, user, packet).getString("outcome")).isEqualTo("SOLD_OUT");
    }
    for (String user : concat(kept, late)) {
      var again = grab(api, user, packet);
      assertThat(again.getString("outcome")).isEqualTo("ALREADY_GRABBED");
      assertThat(again.getLong("amount")).isEqualTo(SHARE);
    }
    assertThat(worker.payOnce()).isZero();
    assertThat(paid(parts, packet)).isEqualTo(paid);
    assertThat(parts.queue().deadLetters(100)).hasSameSizeAs(deadLetters);
    assertReconciliationNames(expected);
  }

  private void assertWallet(String user, long balanceFen) {
    Api api = service.api();
    var wallet = api.get("/api/v1/wallet", api.token(user));
    assertThat(wallet.status()).as(wallet.raw()).isEqualTo(200);
    JsonObject json = wallet.json();
    assertThat(json.getLong("balance")).as("%s: %s", user, json).isEqualTo(balanceFen);
    assertThat(json.getLong("pendingAmount")).as("%s: %s", user, json).isZero();
  }

  /** On the admin endpoint: not ok, and exactly these discrepancies. */
  private void assertReconciliationNames(List<String> expected) {
    Api api = service.api();
    var reconciliation = api.get("/api/v1/admin/reconciliation", api.adminToken());
    assertThat(reconciliation.status()).as(reconciliation.raw()).isEqualTo(200);
    assertThat(reconciliation.json().getBoolean("ok")).as(reconciliation.raw()).isFalse();
    assertThat(
            reconciliation.json().getJsonArray("discrepancies").stream()
                .map(String.class::cast)
                .toList())
        .as(reconciliation.raw())
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  private static void grabAll(Api api, List<String> users, String packet) {
    for (String user : users) {
      var grabbed = grab(api, user, packet);
      assertThat(grabbed.getString("outcome")).as("%s: %s", user, grabbed).isEqualTo("GRABBED");
      assertThat(grabbed.getLong("amount")).isEqualTo(SHARE);
    }
  }

  private static List<String> users(String run, String group, int n) {
    List<String> users = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      users.add("rw-" + run + "-" + group + "-" + i);
    }
    return List.copyOf(users);
  }

  @SafeVarargs
  private static List<String> concat(List<String>... lists) {
    List<String> all = new ArrayList<>();
    for (List<String> list : lists) {
      all.addAll(list);
    }
    return all;
  }
}

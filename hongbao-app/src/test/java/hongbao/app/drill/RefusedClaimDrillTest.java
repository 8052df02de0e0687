package hongbao.app.drill;

import static hongbao.app.drill.Drills.claim;
import static hongbao.app.drill.Drills.decode;
import static hongbao.app.drill.Drills.grab;
import static hongbao.app.drill.Drills.paid;
import static hongbao.app.drill.Drills.sendFixed;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.Parts;
import hongbao.app.activity.Activities;
import hongbao.app.support.Api;
import hongbao.app.support.TestService;
import hongbao.app.workers.Workers;
import hongbao.core.money.Amount;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "refused-claim": Redis loses a grab that was not paid yet, and before its grabber claims it
 * with the receipt the books can no longer pay it — the packet's shares went to others and were
 * paid, or the grabber reached the activity's limit elsewhere. The claim answers REFUSED, moves no
 * money, and the reconciler names exactly what the fault destroyed: that packet, user and amount.
 *
 * <p>Payouts run by hand (the service has no workers): a running worker blocked in its poll when
 * payouts are switched off receives the grab's task and pays it once they are back on, which would
 * turn the lost grab into a paid one.
 */
class RefusedClaimDrillTest {

  private DrillRig rig;
  private TestService service;

  @BeforeEach
  void start() {
    rig = DrillRig.start("refused-claim", Map.of(), false);
    service = rig.service;
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  /** A 300-fen packet of three shares whose lost grab's share was sold again and paid. */
  private record SoldAgain(String packet, long id, String sender, String lost, String receipt) {}

  private SoldAgain lostThenSoldAgain(String prefix) {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = prefix + "-sender-" + run;
    String lost = prefix + "-lost-" + run;
    api.topUp(sender, 10_000);
    String packet = sendFixed(api, sender, 300, 3, 600);
    // Grabbed while payouts are down: only the receipt will remember it.
    JsonObject grabbed = grab(api, lost, packet);
    assertThat(grabbed.getString("outcome")).isEqualTo("GRABBED");

    rig.flushRedis();

    // Rebuilt from the ledger, which paid nobody: all three shares are sold again, and paid.
    for (int u = 0; u < 3; u++) {
      assertThat(grab(api, prefix + "-" + run + "-n" + u, packet).getString("outcome"))
          .isEqualTo("GRABBED");
    }
    assertThat(grab(api, prefix + "-" + run + "-late", packet).getString("outcome"))
        .isEqualTo("SOLD_OUT");
    payAll();
    assertThat(paid(parts, packet)).hasSize(3).doesNotContainKey(lost);
    return new SoldAgain(packet, decode(packet), sender, lost, grabbed.getString("receipt"));
  }

  @Test
  void claim_whenTheLostGrabsShareWasSoldAndPaid_isRefusedAndReportedByPacketUserAndAmount() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    SoldAgain sold = lostThenSoldAgain("rc");
    String packet = sold.packet();
    long id = sold.id();
    String sender = sold.sender();
    String lost = sold.lost();
    String receipt = sold.receipt();

    var claimed = claim(api, lost, packet, receipt);
    assertThat(claimed.status()).as(claimed.raw()).isEqualTo(200);
    assertThat(claimed.json().getString("outcome")).as(claimed.raw()).isEqualTo("REFUSED");
    assertThat(claimed.json().getLong("amount")).isEqualTo(100);
    String reason = claimed.json().getString("reason");
    assertThat(reason).contains("every share of the packet is taken");
    // Claiming is safe to repeat: refused again, recorded once.
    var again = claim(api, lost, packet, receipt);
    assertThat(again.json().getString("outcome")).as(again.raw()).isEqualTo("REFUSED");

    // No money moved for it: the escrow paid exactly the three others, and nothing is pending.
    assertNothingMovedFor(lost, 0);
    assertThat(parts.database().audit().escrowBalance(id)).isEqualTo(Amount.ZERO);
    assertThat(parts.database().packets().refunded(id)).isEqualTo(Amount.ZERO);
    assertThat(paid(parts, packet).values().stream().mapToLong(Amount::fen).sum()).isEqualTo(300);
    assertThat(parts.queue().backlog()).isZero();
    assertThat(wallet(sender).getLong("balance")).isEqualTo(10_000 - 300);

    assertReportedAlone(id, lost, Amount.fen(100), reason);
  }

  /**
   * The operator answers the refused claim: listed with its number, it is compensated once (a retry
   * answers the same and pays nothing more) from the platform's account into the grabber's wallet,
   * not from the packet's escrow, which paid its three shares; dismissing it afterwards is a
   * conflict. Nothing is reported any more: the reconciliation is clean.
   */
  @Test
  void refusedClaim_compensatedByTheOperator_isPaidOnce_andTheBooksAreClean() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    SoldAgain sold = lostThenSoldAgain("rcc");
    String packet = sold.packet();
    String lost = sold.lost();
    var claimed = claim(api, lost, packet, sold.receipt());
    assertThat(claimed.json().getString("outcome")).as(claimed.raw()).isEqualTo("REFUSED");

    var listed = api.get("/api/v1/admin/refused-claims", api.adminToken());
    assertThat(listed.status()).as(listed.raw()).isEqualTo(200);
    JsonObject refused = listed.json().getJsonArray("items").getJsonObject(0);
    assertThat(refused.getString("packet")).isEqualTo(packet);
    assertThat(refused.getString("userId")).isEqualTo(lost);
    assertThat(refused.getLong("amount")).isEqualTo(100);
    String resolve = "/api/v1/admin/refused-claims/" + refused.getLong("id") + "/resolve";
    JsonObject compensate = JsonObject.of("decision", "COMPENSATE", "note", "lost by Redis");
    for (int attempt = 0; attempt < 2; attempt++) {
      var resolved = api.post(resolve, api.adminToken(), Map.of(), compensate.encode());
      assertThat(resolved.status()).as(resolved.raw()).isEqualTo(200);
      assertThat(resolved.json().getString("decision")).isEqualTo("COMPENSATE");
      assertThat(resolved.json().getLong("paid")).isEqualTo(100);
    }
    var dismissed =
        api.post(
            resolve,
            api.adminToken(),
            Map.of(),
            JsonObject.of("decision", "DISMISS", "note", "changed my mind").encode());
    assertThat(dismissed.status()).as(dismissed.raw()).isEqualTo(409);

    JsonObject wallet = wallet(lost);
    assertThat(wallet.getLong("balance")).as(wallet.encode()).isEqualTo(100);
    JsonObject entry = wallet.getJsonArray("entries").getJsonObject(0);
    assertThat(entry.getString("kind")).isEqualTo("COMPENSATION");
    assertThat(entry.getString("packetId")).isEqualTo(packet);
    assertThat(parts.database().audit().escrowBalance(sold.id())).isEqualTo(Amount.ZERO);
    assertThat(paid(parts, packet)).hasSize(3).doesNotContainKey(lost);
    var after = api.get("/api/v1/admin/refused-claims", api.adminToken());
    assertThat(after.json().getJsonArray("items")).as(after.raw()).isEmpty();
    var reconciliation = api.get("/api/v1/admin/reconciliation", api.adminToken());
    assertThat(reconciliation.json().getBoolean("ok")).as(reconciliation.raw()).isTrue();
  }

  @Test
  void claim_whenTheGrabberReachedTheActivitysLimitAfterTheLoss_isRefusedAndReported() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "rca-sender-" + run;
    String lost = "rca-lost-" + run;
    api.topUp(sender, 10_000);
    String activity = Activities.create(api, "refused-" + run, 1);
    String first = Activities.send(api, sender, activity, 300, 3, 600);
    String second = Activities.send(api, sender, activity, 300, 3, 600);
    long firstId = decode(first);
    // Grabbed while payouts are down: only the receipt will remember it.
    JsonObject grabbed = grab(api, lost, first);
    assertThat(grabbed.getString("outcome")).isEqualTo("GRABBED");
    String receipt = grabbed.getString("receipt");

    rig.flushRedis();

    // The counts come back from the ledger without the lost grab: the user's one grab of the
    // activity goes to the other packet, and is paid.
    assertThat(grab(api, lost, second).getString("outcome")).isEqualTo("GRABBED");
    payAll();
    assertThat(paid(parts, second)).containsOnlyKeys(lost);

    var claimed = claim(api, lost, first, receipt);
    assertThat(claimed.status()).as(claimed.raw()).isEqualTo(200);
    assertThat(claimed.json().getString("outcome")).as(claimed.raw()).isEqualTo("REFUSED");
    assertThat(claimed.json().getLong("amount")).isEqualTo(100);
    String reason = claimed.json().getString("reason");
    assertThat(reason).contains("as many shares of the activity as it allows");

    // No money moved for it: the first packet's escrow is whole and its shares are all there.
    assertNothingMovedFor(lost, 100);
    assertThat(paid(parts, first)).isEmpty();
    assertThat(parts.database().audit().escrowBalance(firstId)).isEqualTo(Amount.fen(300));
    assertThat(parts.database().audit().escrowBalance(decode(second))).isEqualTo(Amount.fen(200));
    assertThat(parts.store().state(firstId).orElseThrow().available()).isEqualTo(Amount.fen(300));
    assertThat(parts.queue().backlog()).isZero();
    assertThat(Activities.counts(api, activity, api.adminToken())).isEqualTo(Map.of(lost, 1));
    assertThat(parts.database().activities().paidGrabs(Activities.number(activity)))
        .containsOnlyKeys(lost)
        .allSatisfy((user, packets) -> assertThat(packets).hasSize(1));

    assertReportedAlone(firstId, lost, Amount.fen(100), reason);
  }

  /** Pays every queued grab, as the payout workers would. */
  private void payAll() {
    Parts parts = service.hongbao().parts();
    var worker = Workers.payoutWorker(service.hongbao().config(), parts, "rc-worker");
    for (int round = 0; round < 10 && parts.queue().backlog() > 0; round++) {
      worker.payOnce();
    }
    assertThat(parts.queue().backlog()).isZero();
  }

  private JsonObject wallet(String user) {
    Api api = service.api();
    var wallet = api.get("/api/v1/wallet", api.token(user));
    assertThat(wallet.status()).as(wallet.raw()).isEqualTo(200);
    return wallet.json();
  }

  private void assertNothingMovedFor(String user, long balanceFen) {
    JsonObject wallet = wallet(user);
    assertThat(wallet.getLong("balance")).as(wallet.encode()).isEqualTo(balanceFen);
    assertThat(wallet.getLong("pendingAmount")).as(wallet.encode()).isZero();
  }

  /** The refusal is recorded once, and it is all the reconciler finds, on the admin endpoint. */
  private void assertReportedAlone(long packetId, String user, Amount amount, String reason) {
    Parts parts = service.hongbao().parts();
    assertThat(parts.database().packets().refusedClaims(10))
        .singleElement()
        .satisfies(
            refused -> {
              assertThat(refused.packetId()).isEqualTo(packetId);
              assertThat(refused.userId()).isEqualTo(user);
              assertThat(refused.amount()).isEqualTo(amount);
              assertThat(refused.reason()).isEqualTo(reason);
            });
    Api api = service.api();
    var reconciliation = api.get("/api/v1/admin/reconciliation", api.adminToken());
    assertThat(reconciliation.status()).as(reconciliation.raw()).isEqualTo(200);
    assertThat(reconciliation.json().getBoolean("ok")).as(reconciliation.raw()).isFalse();
    assertThat(
            reconciliation.json().getJsonArray("discrepancies").stream()
                .map(String.class::cast)
                .toList())
        .as(reconciliation.raw())
        .containsExactly(
            "packet %d: receipt of %s for %s refused: %s"
                .formatted(packetId, user, amount, reason));
  }
}

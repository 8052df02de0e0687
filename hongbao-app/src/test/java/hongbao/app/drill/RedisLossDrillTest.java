package hongbao.app.drill;

import static hongbao.app.drill.Drills.assertRebuiltFromTheLedger;
import static hongbao.app.drill.Drills.assertReceiptsHonoured;
import static hongbao.app.drill.Drills.claim;
import static hongbao.app.drill.Drills.decode;
import static hongbao.app.drill.Drills.drained;
import static hongbao.app.drill.Drills.grab;
import static hongbao.app.drill.Drills.paid;
import static hongbao.app.drill.Drills.payouts;
import static hongbao.app.drill.Drills.sendFixed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.app.support.TestService;
import hongbao.core.money.Amount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "redis-loss": Redis comes back empty (a restart without persistence) in the middle of
 * several packets' lives — one with paid grabs, one with grabs not yet paid, one about to expire —
 * and the service carries on from the ledger without a restart of its own.
 */
class RedisLossDrillTest {

  private DrillRig rig;
  private EmbeddedRedis redis;
  private TestService service;

  @BeforeEach
  void start() {
    rig = DrillRig.start("redis-loss");
    redis = rig.redis;
    service = rig.service;
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  @Test
  void redisLoss_packetsAreRebuiltFromTheLedger_noShareIsResold_receiptsAreHonoured() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "rl-sender-" + run;
    api.topUp(sender, 100_000);

    // FIXED 1000 in 10 shares, 5 of them grabbed and paid.
    String paidPacket = sendFixed(api, sender, 1000, 10, 600);
    for (int u = 0; u < 5; u++) {
      grab(api, "rl-" + run + "-a" + u, paidPacket);
    }
    // 900 in 3 shares; 2 grabbed, paid; it expires in three seconds.
    String expiring = sendFixed(api, sender, 900, 3, 3);
    grab(api, "rl-" + run + "-e0", expiring);
    grab(api, "rl-" + run + "-e1", expiring);
    drained(parts);
    // 600 in 6 shares; 3 grabbed while payouts are off: only their receipts will remember them.
    payouts(parts, false);
    String unpaidPacket = sendFixed(api, sender, 600, 6, 600);
    List<String> receipts = new ArrayList<>();
    for (int u = 0; u < 3; u++) {
      receipts.add(grab(api, "rl-" + run + "-b" + u, unpaidPacket).getString("receipt"));
    }

    rig.flushRedis();
    payouts(parts, true);

    // Ten new users on the half-paid packet find exactly its five unpaid shares; the paid grabbers
    // are remembered from the ledger; the lost, unpaid grabs come back with their receipts.
    assertRebuiltFromTheLedger(api, "rl-" + run, paidPacket);
    assertReceiptsHonoured(api, "rl-" + run, unpaidPacket, receipts);
    // Another user's receipt is worth nothing.
    var stolen = claim(api, "rl-" + run + "-thief", unpaidPacket, receipts.get(0));
    assertThat(stolen.status()).isEqualTo(400);
    assertThat(stolen.errorCode()).isEqualTo("INVALID_REQUEST");

    // Payouts carry on (the consumer groups are made again), and the expired packet gives back
    // exactly what the ledger did not pay, not its face amount.
    drained(parts);
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> parts.database().packets().refunded(decode(expiring)).isPositive());
    assertThat(parts.database().packets().refunded(decode(expiring))).isEqualTo(Amount.fen(300));
    assertThat(paid(parts, paidPacket)).hasSize(10);
    assertThat(paid(parts, unpaidPacket)).hasSize(3);
    long senderBalance = api.get("/api/v1/wallet", api.token(sender)).json().getLong("balance");
    assertThat(senderBalance).isEqualTo(100_000 - 1000 - 900 - 600 + 300);
    service.assertReconciled();
  }

  /**
   * Every share of a packet grabbed, none paid, and the packet closed at its expiry (its refund
   * moves nothing) before Redis comes back empty: the grabs and their payout tasks are gone, and
   * the escrow holds their money. The reconciler names the packet; the grabbers' receipts are paid
   * from the escrow, and the books are whole again.
   */
  @Test
  void redisLoss_afterAClosedPacketsUnpaidGrabs_isNamed_untilTheirReceiptsAreClaimed() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "rc-sender-" + run;
    api.topUp(sender, 10_000);
    payouts(parts, false);
    rig.awaitNoPollInProgress();
    String packet = sendFixed(api, sender, 200, 2, 3);
    List<String> users = List.of("rc-" + run + "-0", "rc-" + run + "-1");
    List<String> receipts = new ArrayList<>();
    for (String user : users) {
      receipts.add(grab(api, user, packet).getString("receipt"));
    }
    long id = decode(packet);
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> !parts.database().packets().closedAmong(List.of(id)).isEmpty());
    assertThat(parts.database().packets().refunded(id)).isEqualTo(Amount.ZERO);

    rig.flushRedis();

    // No worker polled the two payouts (none was polling once payouts were off), and Redis lost
    // them: the flush also switched payouts back on (a switch Redis does not hold is on), with
    // nothing left to pay.
    assertThat(paid(parts, packet)).isEmpty();
    assertThat(parts.reconciler().reconcile().discrepancies())
        .containsExactly(
            "packet %d: expired, not refunded, and its grab records are gone".formatted(id));
    for (int u = 0; u < users.size(); u++) {
      var claimed = claim(api, users.get(u), packet, receipts.get(u));
      assertThat(claimed.json().getString("outcome")).as(claimed.raw()).isEqualTo("PAID");
      assertThat(claimed.json().getLong("amount")).isEqualTo(100);
    }
    payouts(parts, true);
    drained(parts);
    assertThat(paid(parts, packet)).hasSize(2);
    service.assertReconciled();
  }
}

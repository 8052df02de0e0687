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
import hongbao.core.expiry.ExpirySweeper;
import hongbao.core.money.Amount;
import hongbao.core.payout.PayoutTask;
import hongbao.core.payout.PayoutWorker;
import hongbao.testkit.SimClock;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "sweep-after-rollback": Redis restarts from an AOF cut back past a grab the ledger has
 * paid, while another grab it did record is still waiting for its payout, and the packet has
 * expired by then. The sweeper reaches it before the repair loop does (the service runs without
 * workers, so the loop never runs here). Closed on Redis's state alone, the forgotten share would
 * count as left, and the refund, bounded only by the escrow, would hand the sender the money of the
 * grab still waiting: its payout then refused for good. The sweeper runs a repair pass for Redis's
 * new generation before it closes anything, so the close counts every grab, the sender gets nothing
 * back, every grabber is paid, and the reconciler finds nothing.
 */
class SweepAfterRollbackDrillTest {

  private static final int COUNT = 3;
  private static final long SHARE = 100;
  private static final long FUNDS = 1_000;

  private DrillRig rig;
  private TestService service;

  @BeforeEach
  void start() {
    rig = DrillRig.start("sweep-after-rollback", Map.of(), false);
    service = rig.service;
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  @Test
  void anExpiredPacketSweptBeforeTheRepair_refundsNothingOwedToItsGrabs() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "sr-sender-" + run;
    String paidEarly = "sr-" + run + "-a";
    String waiting = "sr-" + run + "-b";
    String forgotten = "sr-" + run + "-c";
    api.topUp(sender, FUNDS);
    String packet = sendFixed(api, sender, COUNT * SHARE, COUNT, 600);
    long id = decode(packet);
    PayoutWorker worker = Workers.payoutWorker(service.hongbao().config(), parts, "sr-worker");

    grabbed(api, paidEarly, packet);
    assertThat(worker.payOnce()).isEqualTo(1);
    grabbed(api, waiting, packet);
    long survivingBytes = rig.aofBytes();
    grabbed(api, forgotten, packet);
    // Another worker's batch: the last grab is paid while the one before it still waits.
    var task = new PayoutTask(id, forgotten, Amount.fen(SHARE), Instant.now(), "elsewhere");
    assertThat(parts.database().ledger().pay(List.of(task))).isEqualTo(1);

    rig.powerLoss(survivingBytes);
    var restarted = parts.store().state(id).orElseThrow();
    assertThat(restarted.taken()).as("Redis forgot the paid grab").isEqualTo(2);
    assertThat(parts.database().audit().escrowBalance(id))
        .as("the escrow holds the waiting grab's share")
        .isEqualTo(Amount.fen(SHARE));

    var clock = new SimClock(Instant.now().plus(Duration.ofHours(1)));
    var sweeper =
        new ExpirySweeper(
            parts.database().packets(),
            parts.store(),
            parts.database().ledger(),
            parts.repair(),
            clock,
            100);
    sweeper.sweepOnce();

    assertThat(parts.database().packets().refunded(id)).isEqualTo(Amount.ZERO);
    assertThat(worker.payOnce()).isEqualTo(1);
    assertThat(parts.queue().deadLetters(10)).isEmpty();
    assertThat(paid(parts, packet))
        .containsOnlyKeys(paidEarly, waiting, forgotten)
        .allSatisfy((user, amount) -> assertThat(amount).isEqualTo(Amount.fen(SHARE)));
    assertThat(parts.database().audit().escrowBalance(id)).isEqualTo(Amount.ZERO);
    assertThat(balance(api, sender)).isEqualTo(FUNDS - COUNT * SHARE);
    service.assertReconciled();
  }

  private static void grabbed(Api api, String user, String packet) {
    JsonObject grabbed = grab(api, user, packet);
    assertThat(grabbed.getString("outcome")).as("%s: %s", user, grabbed).isEqualTo("GRABBED");
  }

  private static long balance(Api api, String user) {
    return api.get("/api/v1/wallet", api.token(user)).json().getLong("balance");
  }
}

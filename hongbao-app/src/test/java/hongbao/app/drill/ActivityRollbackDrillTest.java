package hongbao.app.drill;

import static hongbao.app.drill.Drills.decode;
import static hongbao.app.drill.Drills.grab;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.Parts;
import hongbao.app.activity.Activities;
import hongbao.app.support.Api;
import hongbao.app.support.TestService;
import hongbao.app.workers.Workers;
import hongbao.core.expiry.ExpirySweeper;
import hongbao.core.money.Amount;
import hongbao.core.payout.PayoutWorker;
import hongbao.testkit.SimClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "activity-rollback": Redis restarts from an AOF cut back past a grab the ledger has paid,
 * in an activity allowing one grab per user whose only packet has closed since. No open packet
 * names the activity, so the repair after the restart does not restore its counts; and the counts
 * Redis kept are marked whole, from before the cut. A packet sent into the activity afterwards must
 * not take them for whole: they were marked in Redis's previous generation, so its arming restores
 * them from the ledger, and the user who had the activity's grab is stopped at the limit instead of
 * being told GRABBED for a share the ledger then refuses to pay. The reconciler names the first
 * packet's state the cut rolled back, nothing else.
 */
class ActivityRollbackDrillTest {

  private DrillRig rig;
  private TestService service;

  @BeforeEach
  void start() {
    // Without workers: the repair loop never runs, only what the drill drives.
    rig = DrillRig.start("activity-rollback", Map.of(), false);
    service = rig.service;
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  @Test
  void countsRolledBackWithRedis_areRestoredBeforeTheActivitysNextPacketIsSold() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "ar-sender-" + run;
    String forgotten = "ar-forgotten-" + run;
    String newcomer = "ar-newcomer-" + run;
    api.topUp(sender, 10_000);
    String activity = Activities.create(api, "rollback-" + run, 1);
    PayoutWorker worker = Workers.payoutWorker(service.hongbao().config(), parts, "ar-worker");

    String first = Activities.send(api, sender, activity, 300, 3, 600);
    long survivingBytes = rig.aofBytes();
    assertThat(grab(api, forgotten, first).getString("outcome")).isEqualTo("GRABBED");
    assertThat(worker.payOnce()).isEqualTo(1);
    var later = new SimClock(Instant.now().plus(Duration.ofHours(1)));
    new ExpirySweeper(
            parts.database().packets(),
            parts.store(),
            parts.database().ledger(),
            parts.repair(),
            later,
            100)
        .sweepOnce();
    assertThat(parts.database().packets().refunded(decode(first))).isEqualTo(Amount.fen(200));

    rig.powerLoss(survivingBytes);

    String second = Activities.send(api, sender, activity, 300, 3, 600);
    assertThat(grab(api, forgotten, second).getString("outcome")).isEqualTo("LIMIT_REACHED");
    assertThat(grab(api, newcomer, second).getString("outcome")).isEqualTo("GRABBED");
    assertThat(worker.payOnce()).isEqualTo(1);
    assertThat(parts.queue().deadLetters(10)).isEmpty();
    assertThat(parts.database().activities().paidGrabs(Activities.number(activity)))
        .containsOnlyKeys(forgotten, newcomer)
        .allSatisfy((user, packets) -> assertThat(packets).hasSize(1));
    // What the cut destroyed, and only that: the first packet's grab and its close, Redis holding
    // that packet as before the grab (untaken shares of a packet the ledger closed).
    long firstId = decode(first);
    assertThat(parts.reconciler().reconcile().discrepancies())
        .containsExactlyInAnyOrder(
            "packet " + firstId + ": " + forgotten + " was paid without a recorded grab",
            "packet "
                + firstId
                + ": amount 300 fen != paid 100 fen + unpaid 0 fen + refunded 200 fen"
                + " + available 300 fen");
  }
}

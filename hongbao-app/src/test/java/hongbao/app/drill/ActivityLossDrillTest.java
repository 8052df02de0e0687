package hongbao.app.drill;

import static hongbao.app.drill.Drills.decode;
import static hongbao.app.drill.Drills.drained;
import static hongbao.app.drill.Drills.grab;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.activity.Activities;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.app.support.TestService;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "activity-loss": Redis comes back empty while an activity allowing 2 grabs per user has
 * live packets and one already closed. The counts are rebuilt from the ledger before any of its
 * packets is sold again — a rebuilt packet's, a new packet's, and the grabs of the closed packet,
 * which no packet rebuild would bring back — so nobody grabs past the limit.
 */
class ActivityLossDrillTest {

  private DrillRig rig;
  private EmbeddedRedis redis;
  private TestService service;

  @BeforeEach
  void start() {
    rig = DrillRig.start("activity-loss");
    redis = rig.redis;
    service = rig.service;
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  @Test
  void redisLoss_activityCountsComeBackFromTheLedger_andNobodyPassesTheLimit() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "al-sender-" + run;
    String both = "al-both-" + run;
    String closedToo = "al-closed-" + run;
    String once = "al-once-" + run;
    api.topUp(sender, 100_000);
    String activity = Activities.create(api, "loss-" + run, 2);

    String a = Activities.send(api, sender, activity, 300, 3, 600);
    String b = Activities.send(api, sender, activity, 300, 3, 600);
    String closing = Activities.send(api, sender, activity, 300, 3, 3);
    assertThat(grab(api, both, a).getString("outcome")).isEqualTo("GRABBED");
    assertThat(grab(api, both, b).getString("outcome")).isEqualTo("GRABBED");
    assertThat(grab(api, closedToo, closing).getString("outcome")).isEqualTo("GRABBED");
    assertThat(grab(api, closedToo, a).getString("outcome")).isEqualTo("GRABBED");
    assertThat(grab(api, once, a).getString("outcome")).isEqualTo("GRABBED");
    drained(parts);
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> parts.database().packets().refunded(decode(closing)).isPositive());

    rig.flushRedis();

    // A grab of a packet Redis forgot rebuilds it, and the activity's counts with it.
    assertThat(grab(api, closedToo, b).getString("outcome")).isEqualTo("LIMIT_REACHED");
    assertThat(grab(api, both, a).getString("outcome")).isEqualTo("ALREADY_GRABBED");
    // A packet sent after the loss finds the counts whole as well.
    String c = Activities.send(api, sender, activity, 300, 3, 600);
    assertThat(grab(api, both, c).getString("outcome")).isEqualTo("LIMIT_REACHED");
    assertThat(grab(api, once, c).getString("outcome")).isEqualTo("GRABBED");
    assertThat(grab(api, once, b).getString("outcome")).isEqualTo("LIMIT_REACHED");
    drained(parts);

    assertThat(Activities.counts(api, activity, api.adminToken()))
        .isEqualTo(Map.of(both, 2, closedToo, 2, once, 2));
    assertThat(parts.database().activities().paidGrabs(Activities.number(activity)))
        .allSatisfy((user, packets) -> assertThat(packets).hasSize(2));
    service.assertReconciled();
  }
}

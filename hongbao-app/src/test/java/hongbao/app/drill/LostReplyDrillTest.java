package hongbao.app.drill;

import static hongbao.app.drill.Drills.drained;
import static hongbao.app.drill.Drills.grab;
import static hongbao.app.drill.Drills.paid;
import static hongbao.app.drill.Drills.sendFixed;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.Parts;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.core.money.Amount;
import hongbao.redis.LuaScript;
import hongbao.testkit.FreezableProxy;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "lost-reply": Redis runs a grab and its reply is lost with the connection, as when a
 * network fails on the way back. The grabber is answered 503, as for a timeout, and the grab is not
 * run a second time on the next connection (which would be harmless for a grab, but not for every
 * script). What the grab did stays done once: the grabber's retry finds that share, it is paid
 * once, nobody else can take it, and the reconciler finds nothing.
 */
class LostReplyDrillTest {

  private static final LuaScript GRAB = LuaScript.fromResource("grab.lua");

  private EmbeddedRedis redis;
  private FreezableProxy network;
  private TestService service;

  @BeforeEach
  void start() {
    redis = EmbeddedRedis.start();
    URI url = URI.create(redis.url());
    network = FreezableProxy.to(url.getHost(), url.getPort());
    String drill = "lost-reply";
    service =
        TestService.start(
            new Backends(
                drill,
                "redis://127.0.0.1:" + network.port(),
                Backends.embedded().jdbcUrl(),
                Drills.schema(drill)),
            Map.of(),
            true);
  }

  @AfterEach
  void stop() {
    try {
      service.close();
    } finally {
      network.close();
      redis.close();
    }
  }

  @Test
  void aGrabWhoseReplyWasLost_answers503_andItsRetryFindsTheShare_paidOnce() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "lr-sender-" + run;
    String lost = "lr-lost-" + run;
    api.topUp(sender, 10_000);
    String packet = sendFixed(api, sender, 300, 3, 600);
    // A first grab loads the script, so the reply lost is the grab's own, not a NOSCRIPT.
    assertThat(grab(api, "lr-first-" + run, packet).getString("outcome")).isEqualTo("GRABBED");

    network.dropReplyTo(GRAB.sha());
    var unanswered = api.grab(api.token(lost), packet);
    assertThat(unanswered.status()).as(unanswered.raw()).isEqualTo(503);
    assertThat(unanswered.errorCode()).isEqualTo("UNAVAILABLE");

    var retry = grab(api, lost, packet);
    assertThat(retry.getString("outcome")).as("the grab ran once").isEqualTo("ALREADY_GRABBED");
    assertThat(retry.getLong("amount")).isEqualTo(100);
    // One share left, not two: the lost grab's share is the grabber's.
    assertThat(grab(api, "lr-last-" + run, packet).getString("outcome")).isEqualTo("GRABBED");
    assertThat(grab(api, "lr-late-" + run, packet).getString("outcome")).isEqualTo("SOLD_OUT");

    drained(parts);
    assertThat(paid(parts, packet)).containsEntry(lost, Amount.fen(100)).hasSize(3);
    var wallet = api.get("/api/v1/wallet", api.token(lost)).json();
    assertThat(wallet.getLong("balance")).isEqualTo(100);
    assertThat(wallet.getLong("pendingAmount")).isZero();
    service.assertReconciled();
  }
}

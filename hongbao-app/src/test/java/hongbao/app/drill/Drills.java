package hongbao.app.drill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.support.Api;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.http.PacketIds;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What the drills share: sending, grabbing, draining payouts and reading the books. */
final class Drills {

  private Drills() {}

  /**
   * A schema of the drill's own: its packets live on a Redis of their own, so other tests, which
   * share the embedded PostgreSQL, must not see them.
   */
  static String schema(String drill) {
    return drill.replace('-', '_') + "_" + Long.toString(System.nanoTime(), 36);
  }

  static long decode(String packetId) {
    return new PacketIds(PacketIds.DEFAULT_ALPHABET).decode(packetId);
  }

  static String sendFixed(Api api, String sender, long amount, int count, long expiresInSeconds) {
    var response =
        api.send(
            api.token(sender),
            JsonObject.of(
                "amount",
                amount,
                "count",
                count,
                "type",
                "FIXED",
                "expiresInSeconds",
                expiresInSeconds));
    assertThat(response.status()).as("send %s", response.raw()).isEqualTo(201);
    return response.json().getString("id");
  }

  static JsonObject grab(Api api, String user, String packetId) {
    var response = api.grab(api.token(user), packetId);
    assertThat(response.status()).as("grab by %s: %s", user, response.raw()).isEqualTo(200);
    return response.json();
  }

  static Api.Response claim(Api api, String user, String packetId, String receipt) {
    return api.post(
        "/api/v1/packets/" + packetId + "/claims",
        api.token(user),
        Map.of(),
        JsonObject.of("receipt", receipt).encode());
  }

  /**
   * After Redis lost a half-paid packet of ten shares of 100 whose grabbers {@code <users>-a0..a4}
   * were paid: ten new users {@code <users>-n0..n9} find exactly the five unpaid shares left, and
   * the paid grabbers are remembered from the ledger.
   */
  static void assertRebuiltFromTheLedger(Api api, String users, String paidPacket) {
    int grabbed = 0;
    for (int u = 0; u < 10; u++) {
      String outcome = grab(api, users + "-n" + u, paidPacket).getString("outcome");
      if (outcome.equals("GRABBED")) {
        grabbed++;
      } else {
        assertThat(outcome).isEqualTo("SOLD_OUT");
      }
    }
    assertThat(grabbed).isEqualTo(5);
    for (int u = 0; u < 5; u++) {
      var again = grab(api, users + "-a" + u, paidPacket);
      assertThat(again.getString("outcome")).isEqualTo("ALREADY_GRABBED");
      assertThat(again.getLong("amount")).isEqualTo(100);
    }
  }

  /**
   * The lost, unpaid grabs of 100 by {@code <users>-b0, b1, ...} come back with their receipts,
   * once each.
   */
  static void assertReceiptsHonoured(
      Api api, String users, String unpaidPacket, List<String> receipts) {
    for (int u = 0; u < receipts.size(); u++) {
      String user = users + "-b" + u;
      var claimed = claim(api, user, unpaidPacket, receipts.get(u));
      // PAID when a worker had polled it before payouts were switched off and held it in memory
      assertThat(claimed.json().getString("outcome")).as(claimed.raw()).isIn("RECOVERED", "PAID");
      assertThat(claimed.json().getLong("amount")).isEqualTo(100);
      var twice = claim(api, user, unpaidPacket, receipts.get(u));
      assertThat(twice.json().getString("outcome")).isIn("RECORDED", "PAID");
    }
  }

  /** Waits until every queued payout is settled (the workers run on their own). */
  static void drained(Parts parts) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> parts.queue().backlog() == 0);
  }

  static Map<String, Amount> paid(Parts parts, String packetId) {
    return parts.database().packets().paidGrabs(decode(packetId));
  }

  static void payouts(Parts parts, boolean on) {
    parts.switches().set(Switch.PAYOUTS, on);
  }
}

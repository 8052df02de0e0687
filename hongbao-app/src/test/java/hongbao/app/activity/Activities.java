package hongbao.app.activity;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.Api;
import hongbao.http.PacketIds;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/** Creating activities, sending into them and reading their counts over HTTP, for tests. */
public final class Activities {

  private Activities() {}

  public static String create(Api api, String name, int maxGrabsPerUser) {
    Api.Response created =
        api.post(
            "/api/v1/admin/activities",
            api.adminToken(),
            Map.of(),
            JsonObject.of("name", name, "maxGrabsPerUser", maxGrabsPerUser).encode());
    assertThat(created.status()).as(created.raw()).isEqualTo(201);
    return created.json().getString("id");
  }

  /** A FIXED packet sent into the activity; returns its id. */
  public static String send(
      Api api, String sender, String activityId, long amount, int count, long expiresInSeconds) {
    Api.Response sent =
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
                expiresInSeconds,
                "activityId",
                activityId));
    assertThat(sent.status()).as(sent.raw()).isEqualTo(201);
    return sent.json().getString("id");
  }

  /** Every user's count, read page by page from GET /api/v1/activities/{id}. */
  public static Map<String, Integer> counts(Api api, String activityId, String token) {
    var counts = new HashMap<String, Integer>();
    String cursor = null;
    for (int page = 0; page < 1_000; page++) {
      String query = "?limit=200" + (cursor == null ? "" : "&cursor=" + cursor);
      Api.Response shown = api.get("/api/v1/activities/" + activityId + query, token);
      assertThat(shown.status()).as(shown.raw()).isEqualTo(200);
      for (Object each : shown.json().getJsonArray("users")) {
        JsonObject user = (JsonObject) each;
        counts.put(user.getString("userId"), user.getInteger("grabs"));
      }
      cursor = shown.json().getString("nextCursor");
      if (cursor == null) {
        assertThat(shown.json().getLong("userCount")).isEqualTo(counts.size());
        return counts;
      }
    }
    throw new AssertionError("more than 1000 pages of users");
  }

  /** The activity's number behind its API id ("a_" + Sqids). */
  public static long number(String activityId) {
    return new PacketIds(PacketIds.DEFAULT_ALPHABET).decode(activityId.substring(2));
  }
}

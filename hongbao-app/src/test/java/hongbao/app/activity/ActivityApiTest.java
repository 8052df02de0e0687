package hongbao.app.activity;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The endpoints and fields this issue adds to the contract: activities with their per-user limit
 * and LIMIT_REACHED, and 口令 packets matched through pinyin with the sender's passwordMatch.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ActivityApiTest {

  private TestService service;
  private Api api;

  @BeforeAll
  void start() {
    service = TestService.start(Backends.embedded());
    api = service.api();
  }

  @AfterEach
  void reconciles() {
    service.assertReconciled();
  }

  @AfterAll
  void stop() {
    service.close();
  }

  private static String fresh(String name) {
    return name + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private Api.Response createActivity(String token, String body) {
    return api.post("/api/v1/admin/activities", token, Map.of(), body);
  }

  private Api.Response send(String sender, JsonObject extra) {
    var body = JsonObject.of("amount", 200, "count", 2, "type", "FIXED").mergeIn(extra);
    return api.send(api.token(sender), body);
  }

  private String grab(String user, String packetId, String password) {
    Api.Response answer =
        api.post(
            "/api/v1/packets/" + packetId + "/grab",
            api.token(user),
            Map.of(),
            password == null ? "{}" : JsonObject.of("password", password).encode());
    assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
    return answer.json().getString("outcome");
  }

  @Test
  void createActivity_answers201_andShowsItWithEachUsersCount() {
    Api.Response created =
        createActivity(api.adminToken(), "{\"name\": \"除夕\", \"maxGrabsPerUser\": 1}");
    assertThat(created.status()).isEqualTo(201);
    JsonObject activity = created.json();
    assertThat(activity.getString("id")).startsWith("a_");
    assertThat(activity.getString("name")).isEqualTo("除夕");
    assertThat(activity.getInteger("maxGrabsPerUser")).isEqualTo(1);
    assertThat(activity.getString("createdAt")).endsWith("Z");

    String sender = fresh("sender");
    String bob = fresh("bob");
    api.topUp(sender, 10_000);
    String first = Activities.send(api, sender, activity.getString("id"), 200, 2, 600);
    String second = Activities.send(api, sender, activity.getString("id"), 200, 2, 600);
    assertThat(grab(bob, first, null)).isEqualTo("GRABBED");
    assertThat(grab(bob, second, null)).isEqualTo("LIMIT_REACHED");
    assertThat(grab(bob, first, null)).isEqualTo("ALREADY_GRABBED");

    JsonObject shown =
        api.get("/api/v1/activities/" + activity.getString("id"), api.token(bob)).json();
    assertThat(shown.getString("name")).isEqualTo("除夕");
    assertThat(shown.getLong("userCount")).isEqualTo(1);
    assertThat(shown.getJsonArray("users"))
        .containsExactly(JsonObject.of("userId", bob, "grabs", 1));
    JsonObject details = api.get("/api/v1/packets/" + first, api.token(bob)).json();
    assertThat(details.getString("activityId")).isEqualTo(activity.getString("id"));
  }

  /** A page cursor is Redis's unsigned 64-bit scan cursor: anything else is a clear 400. */
  @Test
  void aCursorBeyond64Bits_orNotANumber_isInvalidRequest() {
    String id =
        createActivity(api.adminToken(), "{\"name\": \"游标\", \"maxGrabsPerUser\": 1}")
            .json()
            .getString("id");
    String token = api.token(fresh("reader"));
    assertThat(api.get("/api/v1/activities/" + id + "?cursor=18446744073709551615", token).status())
        .as("2^64 - 1, the largest cursor Redis takes")
        .isEqualTo(200);
    assertThat(api.get("/api/v1/activities/" + id + "?cursor=", token).status())
        .as("empty: the first page, as for every cursor of the API")
        .isEqualTo(200);
    for (String cursor : new String[] {"18446744073709551616", "99999999999999999999", "-1", "x"}) {
      Api.Response refused = api.get("/api/v1/activities/" + id + "?cursor=" + cursor, token);
      assertThat(refused.status()).as(cursor).isEqualTo(400);
      assertThat(refused.errorCode()).as(cursor).isEqualTo("INVALID_REQUEST");
    }
  }

  @Test
  void createActivity_refusesNonAdmins_andBadFields() {
    String body = "{\"name\": \"x\", \"maxGrabsPerUser\": 2}";
    assertThat(createActivity(null, body).status()).isEqualTo(401);
    Api.Response forbidden = createActivity(api.token(fresh("eve")), body);
    assertThat(forbidden.status()).isEqualTo(403);
    String admin = api.adminToken();
    for (String bad :
        new String[] {
          "{\"name\": \"\", \"maxGrabsPerUser\": 2}",
          "{\"name\": \"" + "长".repeat(65) + "\", \"maxGrabsPerUser\": 2}",
          "{\"maxGrabsPerUser\": 2}",
          "{\"name\": \"x\", \"maxGrabsPerUser\": \"2\"}",
          "{\"name\": \"x\", \"maxGrabsPerUser\": 2.0}",
          "{\"name\": \"x\"}"
        }) {
      Api.Response refused = createActivity(admin, bad);
      assertThat(refused.status()).as(bad).isEqualTo(400);
      assertThat(refused.errorCode()).as(bad).isEqualTo("INVALID_REQUEST");
    }
    for (String bad :
        new String[] {
          "{\"name\": \"x\", \"maxGrabsPerUser\": 0}",
          "{\"name\": \"x\", \"maxGrabsPerUser\": 1001}"
        }) {
      Api.Response refused = createActivity(admin, bad);
      assertThat(refused.status()).as(bad).isEqualTo(400);
      assertThat(refused.errorCode()).as(bad).isEqualTo("INVALID_COUNT");
    }
  }

  @Test
  void unknownActivities_areNotFound_whetherRead_orSentInto() {
    String token = api.token(fresh("reader"));
    for (String id : new String[] {"a_zzzzzzzz", "nonsense", "a_", "k3Gx9Q"}) {
      Api.Response missing = api.get("/api/v1/activities/" + id, token);
      assertThat(missing.status()).as(id).isEqualTo(404);
      assertThat(missing.errorCode()).isEqualTo("NOT_FOUND");
    }
    String sender = fresh("sender");
    api.topUp(sender, 1_000);
    Api.Response unknown = send(sender, JsonObject.of("activityId", "a_zzzzzzzz"));
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo("NOT_FOUND");
    Api.Response mistyped = send(sender, JsonObject.of("activityId", 5));
    assertThat(mistyped.status()).isEqualTo(400);
    assertThat(api.get("/api/v1/wallet", api.token(sender)).json().getLong("balance"))
        .isEqualTo(1_000);
  }

  @Test
  void passwordMatch_mustBeExactPinyinOrAPercentage_andNeedsAPassword() {
    String sender = fresh("sender");
    api.topUp(sender, 1_000);
    for (Object bad : new Object[] {"FUZZY", "pinyin", "85", 49, 101, 85.5, true}) {
      Api.Response refused = send(sender, JsonObject.of("password", "恭喜发财", "passwordMatch", bad));
      assertThat(refused.status()).as("%s", bad).isEqualTo(400);
      assertThat(refused.errorCode()).isEqualTo("INVALID_REQUEST");
    }
    Api.Response withoutPassword = send(sender, JsonObject.of("passwordMatch", "PINYIN"));
    assertThat(withoutPassword.status()).isEqualTo(400);
  }

  @Test
  void passwordPacket_isMatchedAsTheSenderChose() {
    String sender = fresh("sender");
    api.topUp(sender, 10_000);
    String pinyin = send(sender, JsonObject.of("password", "恭喜发财")).json().getString("id");
    String exact =
        send(sender, JsonObject.of("password", "恭喜发财", "passwordMatch", "EXACT"))
            .json()
            .getString("id");
    String fuzzy =
        send(sender, JsonObject.of("password", "恭喜发财", "passwordMatch", 80)).json().getString("id");
    String reader = api.token(fresh("reader"));
    assertThat(api.get("/api/v1/packets/" + pinyin, reader).json().getString("passwordMatch"))
        .isEqualTo("PINYIN");
    assertThat(api.get("/api/v1/packets/" + fuzzy, reader).json().getInteger("passwordMatch"))
        .isEqualTo(80);

    assertThat(grab(fresh("a"), pinyin, "恭禧發財")).isEqualTo("GRABBED");
    assertThat(grab(fresh("b"), pinyin, "新年快乐")).isEqualTo("WRONG_PASSWORD");
    assertThat(grab(fresh("c"), pinyin, null)).isEqualTo("WRONG_PASSWORD");
    assertThat(grab(fresh("d"), exact, "恭禧發財")).isEqualTo("WRONG_PASSWORD");
    assertThat(grab(fresh("e"), exact, "恭喜，发财！")).isEqualTo("GRABBED");
    assertThat(grab(fresh("f"), fuzzy, "恭喜花财")).isEqualTo("GRABBED");
    assertThat(grab(fresh("g"), fuzzy, "芝麻开门")).isEqualTo("WRONG_PASSWORD");
  }
}

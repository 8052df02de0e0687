package hongbao.app.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every endpoint of API.md and every error code, against the real service on real backends. Runs
 * once on the embedded servers and, when configured, once more on the machine's servers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ApiContractTest {

  private TestService service;
  private Api api;

  abstract Backends backends();

  @BeforeAll
  void start() {
    service = TestService.start(backends());
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

  private static String user(String name) {
    return name + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private String funded(String name, long amount) {
    String user = user(name);
    assertThat(api.topUp(user, amount).status()).isEqualTo(200);
    return user;
  }

  private static JsonObject lucky(long amount, int count) {
    return JsonObject.of("amount", amount, "count", count, "type", "LUCKY");
  }

  private Response sendRaw(String token, String body) {
    return api.post(
        "/api/v1/packets", token, Map.of("Idempotency-Key", UUID.randomUUID().toString()), body);
  }

  private long balance(String token) {
    return api.get("/api/v1/wallet", token).json().getLong("balance");
  }

  // --- operations ---------------------------------------------------------------------------

  @Test
  void health_ready_andMetrics_answer() {
    assertThat(api.get("/health", null).json().getString("status")).isEqualTo("UP");
    assertThat(api.get("/ready", null).status()).isEqualTo(200);
    Response metrics = api.get("/metrics", null);
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.raw()).contains("hongbao_grab_latency_seconds");
  }

  @Test
  void unknownRoute_isNotFound_asJson() {
    Response response = api.get("/api/v1/nothing-here", api.token(user("u")));
    assertThat(response.status()).isEqualTo(404);
    assertThat(response.errorCode()).isEqualTo("NOT_FOUND");
  }

  // --- auth ---------------------------------------------------------------------------------

  @Test
  void devToken_withMalformedUserId_isInvalidRequest() {
    Response response =
        api.post("/api/v1/dev/tokens", null, Map.of(), JsonObject.of("userId", "a b").encode());
    assertThat(response.status()).isEqualTo(400);
    assertThat(response.errorCode()).isEqualTo("INVALID_REQUEST");
  }

  @Test
  void missingOrBadToken_isUnauthenticated() {
    assertThat(api.get("/api/v1/wallet", null).status()).isEqualTo(401);
    Response bad = api.get("/api/v1/wallet", "not-a-token");
    assertThat(bad.status()).isEqualTo(401);
    assertThat(bad.errorCode()).isEqualTo("UNAUTHENTICATED");
  }

  @Test
  void adminEndpoint_withoutAdmin_isForbidden() {
    Response response = api.get("/api/v1/admin/switches", api.token(user("u")));
    assertThat(response.status()).isEqualTo(403);
    assertThat(response.errorCode()).isEqualTo("FORBIDDEN");
  }

  @Test
  void oversizedBody_is413_beforeAuthentication() {
    String big = "{\"greeting\":\"" + "x".repeat(17 * 1024) + "\"}";
    Response response = api.post("/api/v1/packets", null, Map.of(), big);
    assertThat(response.status()).isEqualTo(413);
    assertThat(response.errorCode()).isEqualTo("INVALID_REQUEST");
  }

  @Test
  void jsonBody_labelledAsAForm_isReadAsJson_whateverItsPercentSignsAndLength() {
    // What curl -d sends: the form label, on a JSON body.
    String form = "application/x-www-form-urlencoded";
    String token = api.token(funded("formlabel", 1_000));
    String percent = "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"greeting\":\"100% luck\"}";
    Response sent =
        api.post(
            "/api/v1/packets",
            token,
            Map.of("Idempotency-Key", "form-1", "Content-Type", form),
            percent);
    assertThat(sent.status()).as(sent.raw()).isEqualTo(201);
    JsonObject details = api.get("/api/v1/packets/" + sent.json().getString("id"), token).json();
    assertThat(details.getString("greeting")).isEqualTo("100% luck");

    // Over the form decoder's 1 KiB field, well under the 16 KiB body limit.
    String padded = JsonObject.of("amount", 100, "count", 1, "type", "LUCKY").encode();
    padded = padded.substring(0, padded.length() - 1) + " ".repeat(2_000) + "}";
    Response long1 =
        api.post(
            "/api/v1/packets",
            token,
            Map.of("Idempotency-Key", "form-2", "Content-Type", form + "; charset=UTF-8"),
            padded);
    assertThat(long1.status()).as(long1.raw()).isEqualTo(201);

    Response notJson =
        api.post(
            "/api/v1/packets",
            token,
            Map.of("Idempotency-Key", "form-3", "Content-Type", form),
            "amount=100&count=1&type=LUCKY");
    assertThat(notJson.status()).isEqualTo(400);
    assertThat(notJson.errorCode()).isEqualTo("INVALID_REQUEST");

    Response oversized =
        api.post(
            "/api/v1/packets",
            token,
            Map.of("Idempotency-Key", "form-4", "Content-Type", form),
            "{\"greeting\":\"" + "x".repeat(17 * 1024) + "\"}");
    assertThat(oversized.status()).isEqualTo(413);
    assertThat(oversized.errorCode()).isEqualTo("INVALID_REQUEST");
    assertThat(api.get("/api/v1/wallet", token).json().getLong("balance")).isEqualTo(800);
  }

  // --- wallet and top-ups --------------------------------------------------------------------

  @Test
  void wallet_neverFunded_isZero() {
    JsonObject wallet = api.get("/api/v1/wallet", api.token(user("new"))).json();
    assertThat(wallet.getLong("balance")).isZero();
    assertThat(wallet.getLong("pendingAmount")).isZero();
    assertThat(wallet.getJsonArray("entries")).isEmpty();
  }

  @Test
  void topUp_replayedWithSameKey_creditsOnce() {
    String user = user("alice");
    String admin = api.adminToken();
    var headers = Map.of("Idempotency-Key", "topup-" + user);
    String body = JsonObject.of("userId", user, "amount", 5000).encode();
    Response first = api.post("/api/v1/admin/topups", admin, headers, body);
    String reordered = "{\"amount\": 5000, \"userId\": \"" + user + "\"}";
    Response again = api.post("/api/v1/admin/topups", admin, headers, reordered);
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.json()).isEqualTo(JsonObject.of("userId", user, "balance", 5000));
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.raw()).isEqualTo(first.raw());
    assertThat(balance(api.token(user))).isEqualTo(5000);

    Response conflict =
        api.post(
            "/api/v1/admin/topups",
            admin,
            headers,
            JsonObject.of("userId", user, "amount", 6000).encode());
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.errorCode()).isEqualTo("IDEMPOTENCY_CONFLICT");
  }

  @Test
  void topUp_badInput_isRefused() {
    String admin = api.adminToken();
    String user = user("bob");
    Response noKey =
        api.post(
            "/api/v1/admin/topups",
            admin,
            Map.of(),
            JsonObject.of("userId", user, "amount", 1).encode());
    assertThat(noKey.status()).isEqualTo(400);
    assertThat(noKey.errorCode()).isEqualTo("INVALID_REQUEST");
    var key = Map.of("Idempotency-Key", UUID.randomUUID().toString());
    for (String amount :
        new String[] {
          "0",
          "100000000001",
          "-5",
          "99999999999999999999",
          "1" + "0".repeat(1_000),
          "-1" + "0".repeat(5_000)
        }) {
      Response response =
          api.post(
              "/api/v1/admin/topups",
              admin,
              key,
              "{\"userId\":\"" + user + "\",\"amount\":" + amount + "}");
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("INVALID_AMOUNT");
    }
    for (String amount : new String[] {"1.5", "100.0", "1e2", "\"100\"", "true"}) {
      Response response =
          api.post(
              "/api/v1/admin/topups",
              admin,
              key,
              "{\"userId\":\"" + user + "\",\"amount\":" + amount + "}");
      assertThat(response.status()).as(amount).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("INVALID_REQUEST");
    }
    assertThat(balance(api.token(user))).isZero();
  }

  // --- send -----------------------------------------------------------------------------------

  @Test
  void send_debitsSender_andAnswersThePacket() {
    String alice = funded("alice", 20_000);
    String token = api.token(alice);
    Response response =
        api.send(token, lucky(10_000, 10).put("greeting", "恭喜发财").put("expiresInSeconds", 600));
    assertThat(response.status()).isEqualTo(201);
    JsonObject packet = response.json();
    assertThat(packet.getString("id")).matches("[A-Za-z0-9]{6,}");
    assertThat(packet.getLong("amount")).isEqualTo(10_000);
    assertThat(packet.getInteger("count")).isEqualTo(10);
    assertThat(packet.getString("type")).isEqualTo("LUCKY");
    assertThat(packet.getString("expiresAt"))
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    JsonObject wallet = api.get("/api/v1/wallet", token).json();
    assertThat(wallet.getLong("balance")).isEqualTo(10_000);
    JsonObject entry = wallet.getJsonArray("entries").getJsonObject(0);
    assertThat(entry.getString("kind")).isEqualTo("SEND");
    assertThat(entry.getLong("amount")).isEqualTo(-10_000);
    assertThat(entry.getString("packetId")).isEqualTo(packet.getString("id"));
  }

  @Test
  void send_replayedWithSameKey_debitsOnce_andConflictsOnAnotherBody() {
    String alice = funded("alice", 10_000);
    String token = api.token(alice);
    var headers = Map.of("Idempotency-Key", "send-1");
    Response first = api.post("/api/v1/packets", token, headers, lucky(3000, 3).encode());
    Response again = api.post("/api/v1/packets", token, headers, lucky(3000, 3).encode());
    assertThat(first.status()).isEqualTo(201);
    assertThat(again.status()).isEqualTo(201);
    assertThat(again.raw()).isEqualTo(first.raw());
    assertThat(balance(token)).isEqualTo(7000);
    Response conflict = api.post("/api/v1/packets", token, headers, lucky(4000, 3).encode());
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.errorCode()).isEqualTo("IDEMPOTENCY_CONFLICT");
    assertThat(balance(token)).isEqualTo(7000);
  }

  @Test
  void send_withoutFunds_isInsufficientFunds_andChangesNothing() {
    String alice = funded("alice", 500);
    String token = api.token(alice);
    Response response = api.send(token, lucky(1000, 2));
    assertThat(response.status()).isEqualTo(402);
    assertThat(response.errorCode()).isEqualTo("INSUFFICIENT_FUNDS");
    assertThat(balance(token)).isEqualTo(500);
  }

  @Test
  void send_invalidInput_getsTheContractsCodes_andChangesNothing() {
    String alice = funded("alice", 100_000);
    String token = api.token(alice);
    Map<String, String> cases =
        Map.ofEntries(
            Map.entry("{\"amount\":100,\"count\":0,\"type\":\"LUCKY\"}", "INVALID_COUNT"),
            Map.entry("{\"amount\":100000,\"count\":10001,\"type\":\"LUCKY\"}", "INVALID_COUNT"),
            Map.entry("{\"amount\":9,\"count\":10,\"type\":\"LUCKY\"}", "INVALID_AMOUNT"),
            Map.entry("{\"amount\":20000001,\"count\":1,\"type\":\"LUCKY\"}", "INVALID_AMOUNT"),
            Map.entry("{\"amount\":100,\"count\":3,\"type\":\"FIXED\"}", "INVALID_AMOUNT"),
            Map.entry(
                "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"expiresInSeconds\":0}",
                "INVALID_EXPIRY"),
            Map.entry(
                "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"expiresInSeconds\":604801}",
                "INVALID_EXPIRY"),
            Map.entry(
                "{\"amount\":100,\"count\":3,\"type\":\"EXCLUSIVE\",\"recipients\":[\"b\",\"c\"]}",
                "INVALID_COUNT"),
            Map.entry(
                "{\"amount\":100,\"count\":2,\"type\":\"EXCLUSIVE\",\"recipients\":[\"b\",\"b\"]}",
                "INVALID_REQUEST"),
            Map.entry(
                "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"recipients\":[\"b\"]}",
                "INVALID_REQUEST"),
            Map.entry("{\"amount\":100.0,\"count\":1,\"type\":\"LUCKY\"}", "INVALID_REQUEST"),
            Map.entry("{\"amount\":1e2,\"count\":1,\"type\":\"LUCKY\"}", "INVALID_REQUEST"),
            Map.entry("{\"amount\":\"100\",\"count\":1,\"type\":\"LUCKY\"}", "INVALID_REQUEST"),
            Map.entry("{\"amount\":true,\"count\":1,\"type\":\"LUCKY\"}", "INVALID_REQUEST"),
            Map.entry("{\"amount\":100,\"count\":1,\"type\":\"HUGE\"}", "INVALID_REQUEST"),
            Map.entry("{\"amount\":100,\"count\":1}", "INVALID_REQUEST"),
            Map.entry("[1,2]", "INVALID_REQUEST"),
            Map.entry("{not json", "INVALID_REQUEST"),
            Map.entry(
                "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"greeting\":\""
                    + "福".repeat(65)
                    + "\"}",
                "INVALID_REQUEST"));
    cases.forEach(
        (body, code) -> {
          Response response = sendRaw(token, body);
          assertThat(response.status()).as(body).isEqualTo(400);
          assertThat(response.errorCode()).as(body).isEqualTo(code);
          assertThat(response.raw()).doesNotContain("Exception").doesNotContain("at hongbao");
        });
    Response noKey = api.post("/api/v1/packets", token, Map.of(), lucky(100, 1).encode());
    assertThat(noKey.status()).isEqualTo(400);
    assertThat(noKey.errorCode()).isEqualTo("INVALID_REQUEST");
    assertThat(balance(token)).isEqualTo(100_000);
  }

  @Test
  void strings_withNulOrUnpairedSurrogates_areInvalidRequest_beforeAnythingIsWritten() {
    String alice = funded("alice", 10_000);
    String token = api.token(alice);
    String admin = api.adminToken();
    for (String bad :
        new String[] {"\\u0000", "a\\u0000b", "\\ud800", "a\\udc00", "\\ude00\\ud83e"}) {
      String[] sends = {
        "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"greeting\":\"" + bad + "\"}",
        "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"password\":\"hb" + bad + "\"}",
        "{\"amount\":100,\"count\":1,\"type\":\"EXCLUSIVE\",\"recipients\":[\"b" + bad + "\"]}",
        "{\"amount\":100,\"count\":1,\"type\":\"LUCKY" + bad + "\"}"
      };
      for (String body : sends) {
        Response response = sendRaw(token, body);
        assertThat(response.status()).as(body).isEqualTo(400);
        assertThat(response.errorCode()).as(body).isEqualTo("INVALID_REQUEST");
      }
      Response topUp =
          api.post(
              "/api/v1/admin/topups",
              admin,
              Map.of("Idempotency-Key", UUID.randomUUID().toString()),
              "{\"userId\":\"" + alice + bad + "\",\"amount\":100}");
      assertThat(topUp.status()).as(bad).isEqualTo(400);
      assertThat(topUp.errorCode()).isEqualTo("INVALID_REQUEST");
      Response devToken =
          api.post("/api/v1/dev/tokens", null, Map.of(), "{\"userId\":\"u" + bad + "\"}");
      assertThat(devToken.status()).as(bad).isEqualTo(400);
    }
    String packetId = api.sendLucky(token, 100, 1, 600);
    Response grab =
        api.post(
            "/api/v1/packets/" + packetId + "/grab",
            api.token(user("bob")),
            Map.of(),
            "{\"password\":\"a\\u0000\"}");
    assertThat(grab.status()).isEqualTo(400);
    assertThat(grab.errorCode()).isEqualTo("INVALID_REQUEST");
    assertThat(balance(token)).isEqualTo(9_900);
    assertThat(api.get("/api/v1/packets?box=sent", token).json().getJsonArray("items")).hasSize(1);
  }

  @Test
  void duplicateKeys_areInvalidRequest_namingTheKey() {
    String alice = funded("alice", 10_000);
    String token = api.token(alice);
    Response send =
        sendRaw(token, "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"amount\":200}");
    assertThat(send.status()).isEqualTo(400);
    assertThat(send.errorCode()).isEqualTo("INVALID_REQUEST");
    assertThat(send.json().getJsonObject("error").getString("message")).contains("'amount'");
    Response topUp =
        api.post(
            "/api/v1/admin/topups",
            api.adminToken(),
            Map.of("Idempotency-Key", UUID.randomUUID().toString()),
            "{\"userId\":\"" + alice + "\",\"amount\":1,\"amount\":100000}");
    assertThat(topUp.status()).isEqualTo(400);
    assertThat(topUp.json().getJsonObject("error").getString("message")).contains("'amount'");
    assertThat(balance(token)).isEqualTo(10_000);
  }

  @Test
  void unknownFields_areInvalidRequest_onEveryPostAndPut_namingTheField() {
    String alice = funded("alice", 10_000);
    String token = api.token(alice);
    String admin = api.adminToken();
    String packetId = api.sendLucky(token, 100, 1, 600);
    var key = Map.of("Idempotency-Key", UUID.randomUUID().toString());
    record Call(
        String method, String path, String token, Map<String, String> headers, String body) {}
    var calls =
        java.util.List.of(
            new Call(
                "POST", "/api/v1/dev/tokens", null, Map.of(), "{\"userId\":\"x\",\"admn\":true}"),
            new Call(
                "POST",
                "/api/v1/admin/topups",
                admin,
                key,
                "{\"userId\":\"" + alice + "\",\"amount\":1,\"note\":\"x\"}"),
            new Call(
                "POST",
                "/api/v1/packets",
                token,
                key,
                "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"pasword\":\"abc\"}"),
            new Call(
                "POST",
                "/api/v1/packets",
                token,
                key,
                "{\"amount\":100,\"count\":1,\"type\":\"LUCKY\",\"expiresInSecond\":60}"),
            new Call(
                "POST",
                "/api/v1/packets/" + packetId + "/grab",
                api.token(user("bob")),
                Map.of(),
                "{\"pasword\":\"abc\"}"),
            new Call(
                "POST",
                "/api/v1/packets/" + packetId + "/claims",
                api.token(user("bob")),
                Map.of(),
                "{\"receipt\":\"x\",\"reciept\":\"x\"}"),
            new Call(
                "PUT",
                "/api/v1/admin/switches/sending",
                admin,
                Map.of(),
                "{\"enabled\":true,\"enable\":false}"));
    for (Call call : calls) {
      Response response =
          api.call(
              api.request(call.method(), call.path(), call.token(), call.headers(), call.body()));
      assertThat(response.status()).as(call.toString()).isEqualTo(400);
      assertThat(response.errorCode()).as(call.toString()).isEqualTo("INVALID_REQUEST");
      String unknown = call.body().replaceAll(".*[,{]\"([a-zA-Z]+)\":[^,]*}$", "$1");
      assertThat(response.json().getJsonObject("error").getString("message"))
          .as(call.toString())
          .contains("'" + unknown + "'");
    }
    assertThat(balance(token)).isEqualTo(9_900);
    assertThat(api.get("/api/v1/packets/" + packetId, token).json().getInteger("grabbedCount"))
        .isZero();
  }

  // --- grab -----------------------------------------------------------------------------------

  @Test
  void grab_takesOneShare_thenAlreadyGrabbed_withTheSameAmount() {
    String packetId = api.sendLucky(api.token(funded("alice", 1000)), 1000, 2, 600);
    String bob = api.token(user("bob"));
    JsonObject first = api.grab(bob, packetId).json();
    JsonObject second = api.grab(bob, packetId).json();
    assertThat(first.getString("outcome")).isEqualTo("GRABBED");
    assertThat(first.getLong("amount")).isBetween(1L, 999L);
    assertThat(second)
        .isEqualTo(JsonObject.of("outcome", "ALREADY_GRABBED", "amount", first.getLong("amount")));
  }

  @Test
  void grab_ofSoldOutPacket_isSoldOut_andTheSenderMayGrab() {
    String alice = api.token(funded("alice", 100));
    String packetId = api.sendLucky(alice, 100, 1, 600);
    assertThat(api.grab(alice, packetId).json().getString("outcome")).isEqualTo("GRABBED");
    assertThat(api.grab(api.token(user("bob")), packetId).json())
        .isEqualTo(JsonObject.of("outcome", "SOLD_OUT"));
  }

  @Test
  void grab_ofUnknownPacket_isNotFound() {
    String bob = api.token(user("bob"));
    for (String id : new String[] {"zzzzzz", "k3Gx9Q", "x"}) {
      Response response = api.grab(bob, id);
      assertThat(response.status()).as(id).isEqualTo(404);
      assertThat(response.errorCode()).isEqualTo("NOT_FOUND");
    }
  }

  @Test
  void exclusivePacket_refusesOthers_withNotEligible() {
    String carol = user("carol");
    String dave = user("dave");
    JsonObject body =
        JsonObject.of(
            "amount",
            200,
            "count",
            2,
            "type",
            "EXCLUSIVE",
            "recipients",
            new JsonArray().add(carol).add(dave));
    Response sent = api.send(api.token(funded("alice", 200)), body);
    assertThat(sent.status()).isEqualTo(201);
    String packetId = sent.json().getString("id");
    assertThat(api.grab(api.token(user("eve")), packetId).json().getString("outcome"))
        .isEqualTo("NOT_ELIGIBLE");
    assertThat(api.grab(api.token(carol), packetId).json().getString("outcome"))
        .isEqualTo("GRABBED");
  }

  @Test
  void passwordPacket_matchesAfterNormalising_andRefusesOtherWords() {
    JsonObject body = lucky(300, 3).put("password", "恭喜发财, HB 2026!");
    Response sent = api.send(api.token(funded("alice", 300)), body);
    String packetId = sent.json().getString("id");
    String path = "/api/v1/packets/" + packetId + "/grab";
    Response wrong =
        api.post(
            path, api.token(user("bob")), Map.of(), JsonObject.of("password", "新年快乐").encode());
    Response none = api.grab(api.token(user("bob")), packetId);
    Response right =
        api.post(
            path,
            api.token(user("carol")),
            Map.of(),
            JsonObject.of("password", "恭喜发财ｈｂ２０２６").encode());
    assertThat(wrong.json().getString("outcome")).isEqualTo("WRONG_PASSWORD");
    assertThat(none.json().getString("outcome")).isEqualTo("WRONG_PASSWORD");
    assertThat(right.json().getString("outcome")).isEqualTo("GRABBED");

    // A phrase of the body's whole 16 KiB is answered like any wrong phrase (it is not read).
    Response huge = api.grab(api.token(user("dave")), packetId, "恭喜发财".repeat(1_300));
    assertThat(huge.json().getString("outcome")).as(huge.raw()).isEqualTo("WRONG_PASSWORD");
  }

  @Test
  void expiredPacket_answersExpired_andRefundsTheRemainderWithinTenSeconds() {
    String alice = funded("alice", 1000);
    String token = api.token(alice);
    String packetId = api.sendLucky(token, 1000, 4, 1);
    long grabbed = api.grab(api.token(user("bob")), packetId).json().getLong("amount");
    await()
        .atMost(Duration.ofSeconds(11))
        .untilAsserted(
            () -> {
              JsonObject details = api.get("/api/v1/packets/" + packetId, token).json();
              assertThat(details.getString("status")).isEqualTo("EXPIRED");
              assertThat(details.getLong("refundedAmount")).isEqualTo(1000 - grabbed);
            });
    assertThat(api.grab(api.token(user("carol")), packetId).json())
        .isEqualTo(JsonObject.of("outcome", "EXPIRED"));
    JsonObject wallet = api.get("/api/v1/wallet", token).json();
    assertThat(wallet.getLong("balance")).isEqualTo(1000 - grabbed);
    assertThat(wallet.getJsonArray("entries").getJsonObject(0).getString("kind"))
        .isEqualTo("REFUND");
  }

  // --- details and boxes -------------------------------------------------------------------

  @Test
  void details_showGrabs_paidFlags_bestLuck_andTimeToEmpty() {
    String alice = api.token(funded("alice", 600));
    String packetId = api.sendLucky(alice, 600, 3, 600);
    String path = "/api/v1/packets/" + packetId;
    JsonObject fresh = api.get(path, alice).json();
    assertThat(fresh.getString("status")).isEqualTo("ACTIVE");
    assertThat(fresh.getValue("bestLuck")).isNull();
    assertThat(fresh.getValue("greeting")).isNull();
    assertThat(fresh.getValue("emptiedAt")).isNull();
    long sum = 0;
    for (String name : new String[] {"b", "c", "d"}) {
      sum += api.grab(api.token(user(name)), packetId).json().getLong("amount");
    }
    assertThat(sum).isEqualTo(600);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              JsonObject done = api.get(path, alice).json();
              assertThat(done.getJsonArray("grabs"))
                  .allSatisfy(g -> assertThat(((JsonObject) g).getBoolean("paid")).isTrue());
            });
    JsonObject done = api.get(path, alice).json();
    assertThat(done.getString("status")).isEqualTo("EMPTY");
    assertThat(done.getInteger("grabbedCount")).isEqualTo(3);
    assertThat(done.getLong("grabbedAmount")).isEqualTo(600);
    assertThat(done.getLong("timeToEmptyMillis")).isNotNegative();
    JsonArray grabs = done.getJsonArray("grabs");
    long best =
        grabs.stream().mapToLong(g -> ((JsonObject) g).getLong("amount")).max().orElseThrow();
    JsonObject firstBest =
        grabs.stream()
            .map(JsonObject.class::cast)
            .filter(g -> g.getLong("amount") == best)
            .findFirst()
            .orElseThrow();
    assertThat(done.getJsonObject("bestLuck"))
        .isEqualTo(JsonObject.of("userId", firstBest.getString("userId"), "amount", best));
    assertThat(api.get("/api/v1/packets/zzzzzzz", alice).status()).isEqualTo(404);
  }

  @Test
  void boxes_listSentAndReceived_withCursor() {
    String alice = funded("alice", 1000);
    String aliceToken = api.token(alice);
    String bobToken = api.token(user("bob"));
    String first = api.sendLucky(aliceToken, 100, 1, 600);
    String second = api.sendLucky(aliceToken, 100, 1, 600);
    long bobsShare = api.grab(bobToken, first).json().getLong("amount");
    JsonObject page = api.get("/api/v1/packets?box=sent&limit=1", aliceToken).json();
    assertThat(page.getJsonArray("items")).hasSize(1);
    assertThat(page.getJsonArray("items").getJsonObject(0).getString("id")).isEqualTo(second);
    assertThat(page.getJsonArray("items").getJsonObject(0).containsKey("grabs")).isFalse();
    assertThat(page.getJsonArray("items").getJsonObject(0).containsKey("myShare")).isTrue();
    assertThat(page.getJsonArray("items").getJsonObject(0).getValue("myShare"))
        .as("alice did not grab her own packet")
        .isNull();
    String cursor = page.getString("nextCursor");
    JsonObject next =
        api.get("/api/v1/packets?box=sent&limit=1&cursor=" + cursor, aliceToken).json();
    assertThat(next.getJsonArray("items").getJsonObject(0).getString("id")).isEqualTo(first);
    JsonObject received = api.get("/api/v1/packets?box=received", bobToken).json();
    assertThat(received.getJsonArray("items")).hasSize(1);
    JsonObject myShare = received.getJsonArray("items").getJsonObject(0).getJsonObject("myShare");
    assertThat(myShare.getLong("amount"))
        .as("bob's grab, without its details")
        .isEqualTo(bobsShare);
    assertThat(myShare.getString("userId")).isNotBlank();
    assertThat(myShare.getString("at")).isNotBlank();
    assertThat(received.getValue("nextCursor")).isNull();
    assertThat(api.get("/api/v1/packets?box=other", bobToken).status()).isEqualTo(400);
    assertThat(api.get("/api/v1/packets", bobToken).status()).isEqualTo(400);
    assertThat(api.get("/api/v1/packets?box=sent&limit=0", bobToken).status()).isEqualTo(400);
  }

  // --- payouts, switches, reconciliation ----------------------------------------------------

  @Test
  void grabbedShare_isPaidIntoTheWallet_andPendingWhilePayoutsArePaused() {
    String admin = api.adminToken();
    String packetId = api.sendLucky(api.token(funded("alice", 500)), 500, 1, 600);
    String bob = api.token(user("bob"));
    api.put("/api/v1/admin/switches/payouts", admin, "{\"enabled\":false}");
    try {
      await()
          .atMost(Duration.ofSeconds(6))
          .until(
              () -> !service.hongbao().parts().switches().enabled(hongbao.core.ops.Switch.PAYOUTS));
      assertThat(api.grab(bob, packetId).json().getLong("amount")).isEqualTo(500);
      JsonObject pending = api.get("/api/v1/wallet", bob).json();
      assertThat(pending.getLong("balance")).isZero();
      assertThat(pending.getLong("pendingAmount")).isEqualTo(500);
    } finally {
      api.put("/api/v1/admin/switches/payouts", admin, "{\"enabled\":true}");
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              JsonObject wallet = api.get("/api/v1/wallet", bob).json();
              assertThat(wallet.getLong("balance")).isEqualTo(500);
              assertThat(wallet.getLong("pendingAmount")).isZero();
              assertThat(wallet.getJsonArray("entries").getJsonObject(0).getString("kind"))
                  .isEqualTo("GRAB");
            });
  }

  @Test
  void unknownSwitch_is404_butABadBodyIs400First() {
    String admin = api.adminToken();
    Response badBody = api.put("/api/v1/admin/switches/nope", admin, "{\"enabled\":\"yes\"}");
    assertThat(badBody.status()).isEqualTo(400);
    assertThat(badBody.errorCode()).isEqualTo("INVALID_REQUEST");
    Response unknown = api.put("/api/v1/admin/switches/nope", admin, "{\"enabled\":false}");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo("NOT_FOUND");
  }

  @Test
  void switches_turnSendingAndGrabbingOff_andReplayStillAnswers() {
    String admin = api.adminToken();
    String alice = api.token(funded("alice", 1000));
    var headers = Map.of("Idempotency-Key", "before-switch");
    Response sent = api.post("/api/v1/packets", alice, headers, lucky(100, 1).encode());
    String packetId = sent.json().getString("id");
    assertThat(api.get("/api/v1/admin/switches", admin).json())
        .isEqualTo(
            JsonObject.of(
                "sending",
                true,
                "grabbing",
                true,
                "payouts",
                true,
                "withdrawals",
                true,
                "rewards",
                true));
    JsonObject off = api.put("/api/v1/admin/switches/sending", admin, "{\"enabled\":false}").json();
    api.put("/api/v1/admin/switches/grabbing", admin, "{\"enabled\":false}");
    try {
      assertThat(off.getBoolean("sending")).isFalse();
      Response refused = api.send(alice, lucky(100, 1));
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.errorCode()).isEqualTo("DISABLED");
      Response replay = api.post("/api/v1/packets", alice, headers, lucky(100, 1).encode());
      assertThat(replay.status()).isEqualTo(201);
      assertThat(replay.raw()).isEqualTo(sent.raw());
      Response grab = api.grab(api.token(user("bob")), packetId);
      assertThat(grab.status()).isEqualTo(503);
      assertThat(grab.errorCode()).isEqualTo("DISABLED");
      // The switch comes before the operation: an id that names no packet is 503 too, not 404.
      Response unknown = api.grab(api.token(user("bob")), "zzzzzz");
      assertThat(unknown.status()).isEqualTo(503);
      assertThat(unknown.errorCode()).isEqualTo("DISABLED");
      Response badBody =
          api.post("/api/v1/packets/zzzzzz/grab", api.token(user("bob")), Map.of(), "{\"pw\":1}");
      assertThat(badBody.status()).isEqualTo(400);
    } finally {
      api.put("/api/v1/admin/switches/sending", admin, "{\"enabled\":true}");
      api.put("/api/v1/admin/switches/grabbing", admin, "{\"enabled\":true}");
    }
    assertThat(balance(alice)).isEqualTo(900);
    assertThat(api.put("/api/v1/admin/switches/nothing", admin, "{\"enabled\":true}").status())
        .isEqualTo(404);
    assertThat(api.put("/api/v1/admin/switches/sending", admin, "{\"enabled\":1}").status())
        .isEqualTo(400);
  }

  @Test
  void reconciliation_endpoint_reportsOk() {
    api.sendLucky(api.token(funded("alice", 100)), 100, 1, 600);
    JsonObject result = api.get("/api/v1/admin/reconciliation", api.adminToken()).json();
    assertThat(result.getBoolean("ok")).isTrue();
    assertThat(result.getInteger("packetsChecked")).isPositive();
    assertThat(result.getJsonArray("discrepancies")).isEmpty();
  }

  @Test
  void reconciliation_ofTheChanges_afterACleanRun_skipsWhatDidNotMove() {
    String alice = api.token(funded("alice", 100));
    api.sendLucky(alice, 100, 1, 600);
    JsonObject full = api.get("/api/v1/admin/reconciliation", api.adminToken()).json();
    JsonObject changes =
        api.get("/api/v1/admin/reconciliation?scope=changes", api.adminToken()).json();
    assertThat(changes.getBoolean("ok")).isTrue();
    // the open packet just sent is among the changes, and nothing more than the full run checked
    assertThat(changes.getInteger("packetsChecked"))
        .isPositive()
        .isLessThanOrEqualTo(full.getInteger("packetsChecked"));
    assertThat(api.get("/api/v1/admin/reconciliation?scope=some", api.adminToken()).status())
        .isEqualTo(400);
    assertThat(api.get("/api/v1/admin/reconciliation?scope=", api.adminToken()).status())
        .as("empty: the default, all")
        .isEqualTo(200);
  }
}

package hongbao.app.withdrawal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.WithdrawalParts;
import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.gateway.GatewayProtocol;
import hongbao.gateway.GatewaySignature;
import hongbao.gateway.sim.Faults;
import hongbao.gateway.sim.SimulatorControl;
import hongbao.http.HttpApi;
import hongbao.http.WithdrawalRoutes;
import hongbao.testkit.SimClock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The withdrawal endpoints of the contract against the real service and the gateway simulator in
 * its own process: answers, errors in the contract's order, idempotency, ownership, paging, the
 * switch, a failed withdrawal's money coming back, and the gateway's callback. The reconciler,
 * statements included, finds nothing after every test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WithdrawalApiTest {

  private TestService service;
  private Api api;
  private Vertx vertx;
  private SimulatorControl simulator;

  @BeforeAll
  void start() {
    Backends backends = Backends.embedded();
    service = TestService.start(backends);
    api = service.api();
    vertx = Vertx.vertx();
    simulator =
        new SimulatorControl(
            vertx,
            URI.create(backends.gatewayUrl()),
            new GatewaySignature(backends.gatewaySecret()));
  }

  @AfterEach
  void reconciles() {
    simulator.faults(Faults.NONE);
    service.assertReconciled();
  }

  @AfterAll
  void stop() {
    simulator.close();
    vertx.close().await();
    service.close();
  }

  private static String user(String name) {
    return name + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private Response withdraw(String token, String key, String body) {
    return api.post("/api/v1/withdrawals", token, Map.of("Idempotency-Key", key), body);
  }

  private Response withdraw(String token, long amount) {
    return withdraw(token, UUID.randomUUID().toString(), JsonObject.of("amount", amount).encode());
  }

  private JsonObject settled(String token, String id) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () ->
                !"PENDING"
                    .equals(
                        api.get("/api/v1/withdrawals/" + id, token).json().getString("status")));
    return api.get("/api/v1/withdrawals/" + id, token).json();
  }

  private long balance(String token) {
    return api.get("/api/v1/wallet", token).json().getLong("balance");
  }

  @Test
  void withdraw_answers202Pending_thenSucceeds_andTheWalletShowsIt() {
    String alice = user("alice");
    api.topUp(alice, 10_000);
    String token = api.token(alice);

    Response accepted = withdraw(token, 5_000);

    assertThat(accepted.status()).isEqualTo(202);
    JsonObject body = accepted.json();
    assertThat(body.fieldNames()).containsExactlyInAnyOrder("id", "amount", "status", "createdAt");
    assertThat(body.getString("id")).startsWith("w_");
    assertThat(body.getLong("amount")).isEqualTo(5_000);
    assertThat(body.getString("status")).isEqualTo("PENDING");
    assertThat(Instant.parse(body.getString("createdAt"))).isNotNull();
    JsonObject done = settled(token, body.getString("id"));
    assertThat(done.getString("status")).isEqualTo("SUCCEEDED");
    assertThat(done.getString("gatewayRef")).isNotBlank();
    assertThat(balance(token)).isEqualTo(5_000);
    JsonArray entries = api.get("/api/v1/wallet", token).json().getJsonArray("entries");
    assertThat(entries.getJsonObject(0).getString("kind")).isEqualTo("WITHDRAW");
    assertThat(entries.getJsonObject(0).getLong("amount")).isEqualTo(-5_000);
  }

  @Test
  void theSameKey_replaysTheFirstAnswer_evenRacing_andDebitsOnce() {
    String alice = user("alice");
    api.topUp(alice, 10_000);
    String token = api.token(alice);
    String body = JsonObject.of("amount", 3_000, "tokens", List.of("t1")).encode();
    List<CompletableFuture<Response>> racing =
        Collections.nCopies(4, body).stream()
            .map(
                b ->
                    api.sendAsync(
                        api.request(
                            "POST",
                            "/api/v1/withdrawals",
                            token,
                            Map.of("Idempotency-Key", "race"),
                            b)))
            .toList();
    List<Response> answers = racing.stream().map(CompletableFuture::join).toList();
    Response later = withdraw(token, "race", "{\"tokens\": [\"t1\"], \"amount\": 3000}");

    assertThat(answers).allSatisfy(r -> assertThat(r.status()).isEqualTo(202));
    assertThat(answers).extracting(Response::raw).containsOnly(later.raw());
    assertThat(later.status()).isEqualTo(202);
    assertThat(api.get("/api/v1/withdrawals", token).json().getJsonArray("items")).hasSize(1);
    assertThat(balance(token)).isEqualTo(7_000);
    Response conflict = withdraw(token, "race", JsonObject.of("amount", 3_001).encode());
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.errorCode()).isEqualTo("IDEMPOTENCY_CONFLICT");
  }

  @Test
  void insufficientFunds_is402_andMovesNothing() {
    String alice = user("alice");
    api.topUp(alice, 1_000);
    String token = api.token(alice);

    Response refused = withdraw(token, 1_001);

    assertThat(refused.status()).isEqualTo(402);
    assertThat(refused.errorCode()).isEqualTo("INSUFFICIENT_FUNDS");
    assertThat(balance(token)).isEqualTo(1_000);
    assertThat(api.get("/api/v1/withdrawals", token).json().getJsonArray("items")).isEmpty();
  }

  @Test
  void malformedRequests_areRefused_inTheContractsOrder() {
    String token = api.token(user("alice"));
    assertThat(withdraw(null, 100).status()).isEqualTo(401);
    assertThat(api.post("/api/v1/withdrawals", token, Map.of(), "{\"amount\":100}").errorCode())
        .isEqualTo("INVALID_REQUEST");
    for (String body :
        List.of(
            "{}",
            "{\"amount\":\"100\"}",
            "{\"amount\":1.5}",
            "{\"amount\":100,\"tokens\":\"t\"}",
            "{\"amount\":100,\"tokens\":[1]}",
            "[]")) {
      Response response = withdraw(token, UUID.randomUUID().toString(), body);
      assertThat(response.status()).as(body).isEqualTo(400);
      assertThat(response.errorCode()).as(body).isEqualTo("INVALID_REQUEST");
    }
    for (long amount : new long[] {0, -5, 20_000_001}) {
      Response response = withdraw(token, amount);
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("INVALID_AMOUNT");
    }
    var tooMany = JsonObject.of("amount", 1, "tokens", Collections.nCopies(501, "t")).encode();
    assertThat(withdraw(token, "many", tooMany).errorCode()).isEqualTo("INVALID_REQUEST");
    // Larger than the default limit, for the tokens a client may carry; not past that.
    String big =
        "{\"amount\":1,\"tokens\":[\"" + "x".repeat(HttpApi.TOKEN_LIST_BODY_BYTES) + "\"]}";
    assertThat(withdraw(token, "big", big).status()).isEqualTo(413);
  }

  @Test
  void aWithdrawal_isTheOwnersOrAnAdmins_toRead() {
    String alice = user("alice");
    api.topUp(alice, 1_000);
    String token = api.token(alice);
    String id = withdraw(token, 100).json().getString("id");
    settled(token, id);

    Response stranger = api.get("/api/v1/withdrawals/" + id, api.token(user("eve")));
    assertThat(stranger.status()).isEqualTo(403);
    assertThat(stranger.errorCode()).isEqualTo("FORBIDDEN");
    JsonObject asAdmin = api.get("/api/v1/withdrawals/" + id, api.adminToken()).json();
    assertThat(asAdmin.getString("status")).isEqualTo("SUCCEEDED");
    assertThat(asAdmin.getJsonArray("transitions"))
        .extracting(t -> ((JsonObject) t).getString("to"))
        .containsExactly("REQUESTED", "SENT", "SUCCEEDED");
    assertThat(api.get("/api/v1/withdrawals/w_nothing", token).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/withdrawals/" + id.substring(2), token).status()).isEqualTo(404);
  }

  @Test
  void list_isNewestFirst_pagedByCursor() {
    String alice = user("alice");
    api.topUp(alice, 1_000);
    String token = api.token(alice);
    String first = withdraw(token, 1).json().getString("id");
    String second = withdraw(token, 2).json().getString("id");
    String third = withdraw(token, 3).json().getString("id");

    JsonObject page = api.get("/api/v1/withdrawals?limit=2", token).json();
    assertThat(page.getJsonArray("items"))
        .extracting(i -> ((JsonObject) i).getString("id"))
        .containsExactly(third, second);
    JsonObject next =
        api.get("/api/v1/withdrawals?limit=2&cursor=" + page.getString("nextCursor"), token).json();
    assertThat(next.getJsonArray("items"))
        .extracting(i -> ((JsonObject) i).getString("id"))
        .containsExactly(first);
    assertThat(next.getValue("nextCursor")).isNull();
    assertThat(api.get("/api/v1/withdrawals?limit=101", token).status()).isEqualTo(400);
    assertThat(api.get("/api/v1/withdrawals?cursor=!!", token).status()).isEqualTo(400);
    for (String id : List.of(first, second, third)) {
      settled(token, id);
    }
  }

  @Test
  void switchedOff_newWithdrawalsAre503_replaysStillAnswer() {
    String alice = user("alice");
    api.topUp(alice, 1_000);
    String token = api.token(alice);
    String admin = api.adminToken();
    String body = JsonObject.of("amount", 100).encode();
    Response before = withdraw(token, "before-switch", body);
    settled(token, before.json().getString("id"));
    api.put("/api/v1/admin/switches/withdrawals", admin, "{\"enabled\":false}");
    try {
      await()
          .atMost(Duration.ofSeconds(5))
          .until(
              () ->
                  !service
                      .hongbao()
                      .parts()
                      .switches()
                      .enabled(hongbao.core.ops.Switch.WITHDRAWALS));
      Response off = withdraw(token, 100);
      assertThat(off.status()).isEqualTo(503);
      assertThat(off.errorCode()).isEqualTo("DISABLED");
      assertThat(withdraw(token, "before-switch", body).raw()).isEqualTo(before.raw());
    } finally {
      api.put("/api/v1/admin/switches/withdrawals", admin, "{\"enabled\":true}");
    }
    assertThat(balance(token)).isEqualTo(900);
  }

  @Test
  void aRefusedWithdrawal_fails_andItsMoneyComesBack() {
    String alice = user("alice");
    api.topUp(alice, 1_000);
    String token = api.token(alice);
    simulator.faults(new Faults(0, 0, 0, 1, 0));
    String id = withdraw(token, 400).json().getString("id");
    WithdrawalParts withdrawals = service.hongbao().parts().withdrawals();
    var clock = new SimClock(Instant.now());
    for (int round = 0;
        round < 10
            && "PENDING"
                .equals(api.get("/api/v1/withdrawals/" + id, token).json().getString("status"));
        round++) {
      clock.advance(Duration.ofMinutes(10));
      withdrawals.janitor(clock).settleOnce();
    }

    JsonObject failed = api.get("/api/v1/withdrawals/" + id, token).json();
    assertThat(failed.getString("status")).isEqualTo("FAILED");
    assertThat(failed.getString("reason")).contains("FAIL");
    assertThat(failed.getValue("gatewayRef")).isNull();
    assertThat(balance(token)).isEqualTo(1_000);
    JsonArray entries = api.get("/api/v1/wallet", token).json().getJsonArray("entries");
    assertThat(entries.getJsonObject(0).getString("kind")).isEqualTo("WITHDRAW_RETURN");
  }

  @Test
  void gatewayCallbacks_mustBeSignedByTheGateway() {
    String notice = "{\"outTradeNo\":\"HBW0\",\"result\":\"SUCCESS\",\"amount\":1}";
    Response forged =
        api.post(
            WithdrawalRoutes.CALLBACK_PATH,
            null,
            Map.of(GatewayProtocol.SIGNATURE_HEADER, "00"),
            notice);
    assertThat(forged.status()).isEqualTo(401);
    String signature =
        new GatewaySignature(Backends.embedded().gatewaySecret())
            .sign(GatewaySignature.NOTICE, notice);
    Response unknown =
        api.post(
            WithdrawalRoutes.CALLBACK_PATH,
            null,
            Map.of(GatewayProtocol.SIGNATURE_HEADER, signature),
            notice);
    assertThat(unknown.status()).isEqualTo(200);
  }

  /**
   * A notice signed by the gateway that cannot be applied (not JSON, no out-trade-no, no result, an
   * amount that is no whole positive number of fen) is a gateway bug: a 400 naming it, not a 500,
   * refused before any withdrawal is looked up (a 1.5 fen amount read as 1 would round money away).
   */
  @Test
  void signedCallbacksThatDoNotSettle_areRefusedWithA400() {
    var signature = new GatewaySignature(Backends.embedded().gatewaySecret());
    for (String notice :
        List.of(
            "not json",
            "[1]",
            "{\"result\":\"SUCCESS\",\"amount\":1}",
            "{\"outTradeNo\":\"HBW0\",\"result\":\"MAYBE\"}",
            "{\"outTradeNo\":\"HBW0\",\"result\":null}",
            "{\"outTradeNo\":\"HBW0\",\"result\":\"SUCCESS\"}",
            "{\"outTradeNo\":\"HBW0\",\"result\":\"SUCCESS\",\"amount\":1.5}",
            "{\"outTradeNo\":\"HBW0\",\"result\":\"SUCCESS\",\"amount\":\"1\"}",
            "{\"outTradeNo\":\"HBW0\",\"result\":\"SUCCESS\",\"amount\":0}",
            "{\"outTradeNo\":7,\"result\":\"FAIL\"}")) {
      Response refused =
          api.post(
              WithdrawalRoutes.CALLBACK_PATH,
              null,
              Map.of(
                  GatewayProtocol.SIGNATURE_HEADER,
                  signature.sign(GatewaySignature.NOTICE, notice)),
              notice);
      assertThat(refused.status()).as(notice + " → " + refused.raw()).isEqualTo(400);
      assertThat(refused.errorCode()).isEqualTo("INVALID_REQUEST");
    }
  }
}

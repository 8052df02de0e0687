package hongbao.app.withdrawal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import hongbao.app.WithdrawalParts;
import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.ForgingProxy;
import hongbao.app.support.ForgingProxy.Forgery;
import hongbao.app.support.TestService;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.withdrawal.ForcedCredit;
import hongbao.core.withdrawal.Gateway;
import hongbao.core.withdrawal.QueryAnswer;
import hongbao.core.withdrawal.Settlement;
import hongbao.core.withdrawal.StatementLine;
import hongbao.core.withdrawal.TransferAnswer;
import hongbao.core.withdrawal.Withdrawal;
import hongbao.core.withdrawal.WithdrawalBooks.Booked;
import hongbao.core.withdrawal.WithdrawalJanitor;
import hongbao.core.withdrawal.WithdrawalRequest;
import hongbao.core.withdrawal.WithdrawalService;
import hongbao.core.withdrawal.WithdrawalStatus;
import hongbao.gateway.GatewaySignature;
import hongbao.gateway.HttpGateway;
import hongbao.gateway.sim.Faults;
import hongbao.gateway.sim.SimulatorControl;
import hongbao.testkit.SimClock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Withdrawals against the gateway simulator — a real child process, its faults real network faults
 * — with every fault rate up, clients retrying and racing duplicates, and crashes between the
 * steps. Then janitors settle what is left on a clock the test moves: every withdrawal settles, is
 * paid at most once, every wallet is exact, and reconciliation against the gateway's statement
 * finds nothing.
 *
 * <p>The service runs without its own workers, so the only janitors are the test's. Crashes are
 * crash points in this JVM that abandon the work where a kill -9 would: a sender that never runs
 * (killed between the debit's commit and SENT) and a gateway call that dies once the request has
 * left (killed between SENT and the answer).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WithdrawalFaultsTest {

  private static final Faults EVERY_FAULT = new Faults(0.2, 0.1, 0.05, 0.05, 0.1);
  private static final int USERS = 200;
  private static final int WITHDRAWALS = 2_000;
  private static final long FUNDS = 12_000;
  private static final int JANITORS = 12;

  private TestService service;
  private Api api;
  private Vertx vertx;
  private SimulatorControl simulator;
  private WithdrawalParts withdrawals;
  private SimClock clock;
  private HttpGateway gatewayWithoutCallbacks;
  private ForgingProxy proxy;
  private HttpGateway gatewayThroughProxy;

  @BeforeAll
  void start() {
    Backends backends = Backends.embedded();
    service = TestService.start(backends, Map.of(), false);
    api = service.api();
    vertx = Vertx.vertx();
    simulator =
        new SimulatorControl(
            vertx,
            URI.create(backends.gatewayUrl()),
            new GatewaySignature(backends.gatewaySecret()));
    withdrawals = service.hongbao().parts().withdrawals();
    // What a killed process sends: nobody is left to take the gateway's callback.
    gatewayWithoutCallbacks =
        new HttpGateway(
            vertx,
            URI.create(backends.gatewayUrl()),
            new GatewaySignature(backends.gatewaySecret()),
            Duration.ofMillis(Backends.GATEWAY_TIMEOUT_MILLIS),
            () -> null);
    proxy = new ForgingProxy(vertx, URI.create(backends.gatewayUrl()));
    gatewayThroughProxy =
        new HttpGateway(
            vertx,
            proxy.uri(),
            new GatewaySignature(backends.gatewaySecret()),
            Duration.ofMillis(Backends.GATEWAY_TIMEOUT_MILLIS),
            () -> null);
  }

  @AfterEach
  void reconciles() {
    simulator.faults(Faults.NONE);
    proxy.forge(Forgery.NONE);
    service.assertReconciledAfterSweeping();
  }

  @AfterAll
  void stop() {
    gatewayWithoutCallbacks.close();
    gatewayThroughProxy.close();
    proxy.close();
    simulator.close();
    vertx.close().await();
    service.close();
  }

  @Test
  void twoThousandWithdrawals_everyFaultUp_retriesAndDuplicates_settleOnceAndReconcile()
      throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 6);
    List<String> users = new ArrayList<>();
    for (int u = 0; u < USERS; u++) {
      users.add("fault-" + run + "-" + u);
    }
    JsonObject before = simulator.stats();
    ExecutorService clients = Executors.newFixedThreadPool(24);
    long started = System.nanoTime();
    Duration cpuBefore = ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    Map<String, String> tokens = new ConcurrentHashMap<>();
    try {
      List<Future<?>> funding = new ArrayList<>();
      String admin = api.adminToken();
      for (String user : users) {
        funding.add(
            clients.submit(
                () -> {
                  tokens.put(user, api.token(user));
                  var headers = Map.of("Idempotency-Key", "fund-" + user);
                  String body = JsonObject.of("userId", user, "amount", FUNDS).encode();
                  assertThat(api.post("/api/v1/admin/topups", admin, headers, body).status())
                      .isEqualTo(200);
                }));
      }
      for (Future<?> f : funding) {
        f.get(60, TimeUnit.SECONDS);
      }
      simulator.faults(EVERY_FAULT);

      // Each withdrawal: 1-3 racing copies of one request, and now and then a later retry.
      var random = new SplittableRandom(14);
      Map<String, List<Response>> answers = new ConcurrentHashMap<>();
      List<Future<?>> requests = new ArrayList<>();
      for (int i = 0; i < WITHDRAWALS; i++) {
        String user = users.get(i % USERS);
        String key = "w-" + i;
        String body = JsonObject.of("amount", 1 + random.nextInt(2_000)).encode();
        int copies = 1 + random.nextInt(2);
        boolean retryLater = random.nextInt(10) == 0;
        for (int c = 0; c < copies + (retryLater ? 1 : 0); c++) {
          requests.add(
              clients.submit(
                  () -> {
                    Response response =
                        api.post(
                            "/api/v1/withdrawals",
                            tokens.get(user),
                            Map.of("Idempotency-Key", key),
                            body);
                    answers
                        .computeIfAbsent(
                            user + "|" + key, k -> Collections.synchronizedList(new ArrayList<>()))
                        .add(response);
                  }));
        }
      }
      for (Future<?> f : requests) {
        f.get(120, TimeUnit.SECONDS);
      }
      long requested = System.nanoTime();

      // Every accepted key has one withdrawal; 2xx answers of one key are all the same.
      Map<String, String> idByKey = new HashMap<>();
      int refused = 0;
      for (var entry : answers.entrySet()) {
        List<Response> accepted = entry.getValue().stream().filter(r -> r.status() == 202).toList();
        assertThat(entry.getValue())
            .allSatisfy(r -> assertThat(r.status()).as(r.raw()).isIn(202, 402));
        if (accepted.isEmpty()) {
          refused++;
          continue;
        }
        assertThat(accepted).extracting(Response::raw).containsOnly(accepted.getFirst().raw());
        idByKey.put(entry.getKey(), accepted.getFirst().json().getString("id"));
      }
      assertThat(new HashSet<>(idByKey.values())).hasSameSizeAs(idByKey.values());

      // The request threads have had their say once nothing is REQUESTED or SENT.
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> count(users, Set.of(WithdrawalStatus.REQUESTED, WithdrawalStatus.SENT)) == 0);
      long unsettledAfterRequests = count(users, Set.of(WithdrawalStatus.UNKNOWN));
      long sent = System.nanoTime();

      int rounds = settleWithJanitors(users);
      long janitored = System.nanoTime();

      List<Booked> mine = booked(users);
      assertThat(mine).hasSize(idByKey.size());
      assertThat(mine).allSatisfy(b -> assertThat(b.withdrawal().status().settled()).isTrue());
      Map<String, List<StatementLine>> statement = statement();
      Map<String, Long> paidTo = new HashMap<>();
      int succeeded = 0;
      for (Booked b : mine) {
        Withdrawal w = b.withdrawal();
        List<StatementLine> lines = statement.getOrDefault(w.outTradeNo(), List.of());
        List<StatementLine> paid = lines.stream().filter(StatementLine::paid).toList();
        assertThat(paid).as("payments of %s", w.outTradeNo()).hasSizeLessThanOrEqualTo(1);
        if (w.status() == WithdrawalStatus.SUCCEEDED) {
          succeeded++;
          assertThat(paid).singleElement().extracting(StatementLine::amount).isEqualTo(w.amount());
          paidTo.merge(w.userId(), w.amount().fen(), Long::sum);
        } else {
          assertThat(paid).as("%s FAILED here, paid there", w.outTradeNo()).isEmpty();
        }
      }
      for (String user : users) {
        long balance = api.get("/api/v1/wallet", tokens.get(user)).json().getLong("balance");
        assertThat(balance).as(user).isEqualTo(FUNDS - paidTo.getOrDefault(user, 0L));
      }
      JsonObject after = simulator.stats();
      assertThat(delta(before, after, "transfersWithoutQuery")).isZero();
      assertThat(delta(before, after, "payThenErrors")).isPositive();
      assertThat(delta(before, after, "timeouts")).isPositive();
      assertThat(delta(before, after, "systemErrors")).isPositive();
      assertThat(delta(before, after, "duplicateCallbacks")).isPositive();
      System.out.printf(
          "withdrawal faults: %d requests for %d keys -> %d withdrawals (%d refused 402),"
              + " %d succeeded, %d failed; %d unknown after the senders; %d janitor rounds;"
              + " requests %.1f s, senders %.1f s, janitors %.1f s; CPU of this JVM %.1f s;"
              + " gateway %s%n",
          requests.size(),
          WITHDRAWALS,
          mine.size(),
          refused,
          succeeded,
          mine.size() - succeeded,
          unsettledAfterRequests,
          rounds,
          (requested - started) / 1e9,
          (sent - requested) / 1e9,
          (janitored - sent) / 1e9,
          ProcessHandle.current()
                  .info()
                  .totalCpuDuration()
                  .orElse(Duration.ZERO)
                  .minus(cpuBefore)
                  .toMillis()
              / 1e3,
          diff(before, after));
    } finally {
      clients.shutdownNow();
    }
  }

  /**
   * A withdrawal the service cannot settle by itself is closed by an operator through the API: not
   * within the hour after a request of it went unanswered (409: it may still be on its way); then
   * the gateway is asked first, so while it does not answer nothing moves (503), and a paid one is
   * refused (409); once it says NOT_FOUND the money is back in the wallet, and the reconciler finds
   * nothing (after each test).
   */
  @Test
  void anOperatorClosesAWithdrawalTheGatewayNeverTook_throughTheApi() {
    String user = funded("operator-close");
    String token = api.token(user);
    String admin = api.adminToken();
    simulator.faults(new Faults(1, 0, 0, 0, 0)); // every call: SYSTEM_ERROR, nothing done
    String id = withdraw(token, 400);
    long internal = withdrawals.store().page(user, null, 1).getFirst().id();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> status(internal) == WithdrawalStatus.UNKNOWN);
    String close = "/api/v1/admin/withdrawals/" + id + "/fail";
    String body = JsonObject.of("reason", "the gateway holds no request").encode();

    assertThat(api.post(close, token, Map.of(), body).status()).isEqualTo(403);
    Api.Response blank = api.post(close, admin, Map.of(), JsonObject.of("reason", "").encode());
    assertThat(blank.status()).isEqualTo(400);
    assertThat(blank.errorCode()).isEqualTo("INVALID_REQUEST");
    Api.Response unknown =
        api.post("/api/v1/admin/withdrawals/w_not-an-id/fail", admin, Map.of(), body);
    assertThat(unknown.status()).isEqualTo(404);
    Api.Response tooSoon = api.post(close, admin, Map.of(), body);
    assertThat(tooSoon.status()).as(tooSoon.raw()).isEqualTo(409);
    assertThat(tooSoon.raw()).contains("went unanswered less than 1 h ago");
    // An hour on: the unanswered request can no longer be on its way.
    service
        .books()
        .execute(
            "UPDATE withdrawal_transition SET at = at - interval '2 hours' WHERE withdrawal_id = "
                + internal);
    Api.Response silent = api.post(close, admin, Map.of(), body);
    assertThat(silent.status()).as(silent.raw()).isEqualTo(503);
    assertThat(silent.errorCode()).isEqualTo("UNAVAILABLE");
    assertThat(status(internal)).isEqualTo(WithdrawalStatus.UNKNOWN);
    assertThat(balance(user)).isEqualTo(600);

    simulator.faults(Faults.NONE);
    Api.Response closed = api.post(close, admin, Map.of(), body);

    assertThat(closed.status()).as(closed.raw()).isEqualTo(200);
    assertThat(closed.json().getString("status")).isEqualTo("FAILED");
    assertThat(closed.json().getString("reason"))
        .isEqualTo("query: NOT_FOUND; closed by an operator: the gateway holds no request");
    JsonArray transitions = closed.json().getJsonArray("transitions");
    assertThat(transitions.getJsonObject(transitions.size() - 1).getString("from"))
        .isEqualTo("UNKNOWN");
    assertThat(balance(user)).isEqualTo(1_000);
    assertThat(api.get("/api/v1/withdrawals/" + id, token).json().getString("status"))
        .isEqualTo("FAILED");
    Api.Response again = api.post(close, admin, Map.of(), body);
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json()).isEqualTo(closed.json());
    assertThat(balance(user)).isEqualTo(1_000);

    String paid = withdraw(token, 300);
    long paidId = withdrawals.store().page(user, null, 1).getFirst().id();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> status(paidId) == WithdrawalStatus.SUCCEEDED);
    Api.Response refused =
        api.post("/api/v1/admin/withdrawals/" + paid + "/fail", admin, Map.of(), body);
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.errorCode()).isEqualTo("CONFLICT");
    assertThat(balance(user)).isEqualTo(700);
  }

  /** Requests a withdrawal through the API; its public id. */
  private String withdraw(String token, long amount) {
    Api.Response accepted =
        api.post(
            "/api/v1/withdrawals",
            token,
            Map.of("Idempotency-Key", UUID.randomUUID().toString()),
            JsonObject.of("amount", amount).encode());
    assertThat(accepted.status()).as(accepted.raw()).isEqualTo(202);
    return accepted.json().getString("id");
  }

  @Test
  void killedBetweenTheDebitAndSending_isSentByTheJanitorAfterRestart() {
    String user = funded("crash-debited");
    clock = new SimClock(Instant.now());
    // The request commits, then the process dies: its sender never runs.
    var dying =
        new WithdrawalService(
            withdrawals.store(),
            ForcedCredit.NONE,
            settlement(withdrawals.gateway()),
            task -> {},
            service.hongbao().parts().switches(),
            withdrawals.timings(),
            clock,
            ThreadLocalRandom.current()::nextLong);
    IdempotencyKey key = new IdempotencyKey(user, WithdrawalService.ENDPOINT, "k", "h");
    long id =
        Long.parseLong(
            dying
                .request(
                    new WithdrawalRequest(user, 700, null),
                    key,
                    w -> new StoredAnswer("h", "ACCEPTED", Long.toString(w.id())))
                .payload());
    assertThat(status(id)).isEqualTo(WithdrawalStatus.REQUESTED);

    // Restarted: a janitor leaves it alone during the grace, then sends it.
    janitor().settleOnce();
    assertThat(status(id)).isEqualTo(WithdrawalStatus.REQUESTED);
    clock.advance(withdrawals.timings().sendGrace().plusSeconds(1));
    janitor().settleOnce();

    assertThat(status(id)).isEqualTo(WithdrawalStatus.SUCCEEDED);
    assertPaidOnce(id);
    assertThat(balance(user)).isEqualTo(300);
  }

  @Test
  void killedBetweenSendingAndTheAnswer_isAskedAboutAfterRestart_neverPaidTwice() {
    String user = funded("crash-sent");
    clock = new SimClock(Instant.now());
    long paid = request(user, 400);
    long dropped = request(user, 500);
    JsonObject before = simulator.stats();

    // One request reaches the gateway (which pays) and the process dies before the answer; the
    // other dies after SENT was written but before its request left.
    var diedAfter = settlement(new DiesAfterSending(gatewayWithoutCallbacks));
    var diedBefore = settlement(new DiesBeforeSending());
    assertThatThrownBy(() -> diedAfter.send(paid)).isInstanceOf(Killed.class);
    assertThatThrownBy(() -> diedBefore.send(dropped)).isInstanceOf(Killed.class);
    assertThat(status(paid)).isEqualTo(WithdrawalStatus.SENT);
    assertThat(status(dropped)).isEqualTo(WithdrawalStatus.SENT);

    // Restarted: nothing until the answer deadline, then ask before anything else.
    janitor().settleOnce();
    assertThat(status(paid)).isEqualTo(WithdrawalStatus.SENT);
    assertThat(status(dropped)).isEqualTo(WithdrawalStatus.SENT);
    paidOnceByTheJanitor(paid, dropped);
    JsonObject after = simulator.stats();
    assertThat(delta(before, after, "transfers"))
        .as("one transfer each, none re-sent")
        .isEqualTo(2);
    assertThat(delta(before, after, "transfersWithoutQuery")).isZero();
    assertThat(balance(user)).isEqualTo(100);
  }

  /**
   * Someone on the path between the service and the gateway answers in its name: a refusal of a
   * transfer the gateway paid (carrying the signature of the gateway's real answer), and a payment
   * of a transfer it kept from the gateway (signed with a secret of its own). Neither is believed:
   * the first withdrawal is not given back, the second not closed paid; both stay unknown until the
   * gateway itself is asked, which settles each one paid exactly once.
   */
  @Test
  void answersForgedOnThePath_areNotBelieved_andTheGatewayItselfSettlesEachOnce() {
    String user = funded("forged");
    clock = new SimClock(Instant.now());
    answeredThroughTheProxy();
    long paidButRefused = request(user, 400);
    long keptButPaid = request(user, 300);

    proxy.forge(Forgery.FAIL_AFTER_PAYING);
    settlement(gatewayThroughProxy).send(paidButRefused);
    proxy.forge(Forgery.SUCCESS_WITHOUT_SENDING);
    settlement(gatewayThroughProxy).send(keptButPaid);
    proxy.forge(Forgery.NONE);

    assertThat(proxy.forged()).isEqualTo(2);
    for (long id : List.of(paidButRefused, keptButPaid)) {
      Withdrawal forged = withdrawals.store().find(id).orElseThrow();
      assertThat(forged.status())
          .as("neither refused nor paid")
          .isEqualTo(WithdrawalStatus.UNKNOWN);
      assertThat(forged.cause()).contains("an answer without the gateway's signature");
    }
    assertThat(balance(user)).as("nothing given back").isEqualTo(300);
    assertPaidOnce(paidButRefused);
    String kept = withdrawals.store().find(keptButPaid).orElseThrow().outTradeNo();
    assertThat(statement()).as("never reached the gateway").doesNotContainKey(kept);

    paidOnceByTheJanitor(paidButRefused, keptButPaid);
    assertThat(balance(user)).isEqualTo(300);
  }

  @Test
  void payThenSystemError_everyTime_isNeverAPaymentTwice() throws Exception {
    simulator.faults(new Faults(0, 0, 1, 0, 0));
    String user = funded("pay-then-error");
    String token = api.token(user);
    JsonObject before = simulator.stats();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      Response accepted =
          api.post(
              "/api/v1/withdrawals",
              token,
              Map.of("Idempotency-Key", "pte-" + i),
              JsonObject.of("amount", 10).encode());
      assertThat(accepted.status()).isEqualTo(202);
      ids.add(accepted.json().getString("id"));
    }
    // Each answer was SYSTEM_ERROR after paying; a callback or a janitor's query settles it.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                count(List.of(user), Set.of(WithdrawalStatus.REQUESTED, WithdrawalStatus.SENT))
                    == 0);
    simulator.faults(Faults.NONE);

    settleWithJanitors(List.of(user));

    assertThat(new HashSet<>(ids)).hasSize(30);
    assertThat(booked(List.of(user)))
        .hasSize(30)
        .allSatisfy(b -> assertThat(b.withdrawal().status()).isEqualTo(WithdrawalStatus.SUCCEEDED));
    JsonObject after = simulator.stats();
    assertThat(delta(before, after, "paid")).isEqualTo(30);
    assertThat(delta(before, after, "transfers")).as("never sent again").isEqualTo(30);
    assertThat(delta(before, after, "payThenErrors")).isEqualTo(30);
    assertThat(balance(user)).isEqualTo(FUNDS - 300);
    for (Booked b : booked(List.of(user))) {
      assertPaidOnce(b.withdrawal().id());
    }
  }

  // ------------------------------------------------------------------------------- helpers

  /** Rounds of concurrent janitors, the clock moved past every backoff between rounds. */
  private int settleWithJanitors(List<String> users) throws Exception {
    clock = new SimClock(Instant.now());
    ExecutorService janitors = Executors.newFixedThreadPool(JANITORS);
    try {
      int round = 0;
      while (round < 60
          && count(
                  users,
                  Set.of(
                      WithdrawalStatus.REQUESTED, WithdrawalStatus.SENT, WithdrawalStatus.UNKNOWN))
              > 0) {
        round++;
        clock.advance(withdrawals.timings().backoffMax().plusMinutes(1));
        List<Future<Integer>> running = new ArrayList<>();
        for (int j = 0; j < JANITORS; j++) {
          WithdrawalJanitor janitor = janitor();
          running.add(
              janitors.submit(
                  () -> {
                    int taken = 0;
                    for (int pass = 0; pass < 1_000; pass++) {
                      int now = janitor.settleOnce();
                      if (now == 0) {
                        break;
                      }
                      taken += now;
                    }
                    return taken;
                  }));
        }
        for (Future<Integer> janitor : running) {
          janitor.get(120, TimeUnit.SECONDS);
        }
      }
      return round;
    } finally {
      janitors.shutdownNow();
    }
  }

  /**
   * Once the gateway has answered through the proxy: its first call opens the proxy's connection,
   * which can outlast the adapter's short timeout, and each answer the test reads must be the
   * proxy's, not a timeout.
   */
  private void answeredThroughTheProxy() {
    for (int i = 0; i < 5; i++) {
      if (!(gatewayThroughProxy.query("WARMUP") instanceof QueryAnswer.NoAnswer)) {
        return;
      }
    }
    throw new AssertionError("the gateway never answered through the proxy");
  }

  /**
   * Runs the janitor past each answer deadline until the withdrawals are settled, asking the
   * gateway before anything else; each must then be paid, once.
   */
  private void paidOnceByTheJanitor(long... ids) {
    for (int round = 0; round < 10 && !Arrays.stream(ids).allMatch(this::settled); round++) {
      clock.advance(withdrawals.timings().answerDeadline().plusMinutes(5));
      janitor().settleOnce();
    }
    for (long id : ids) {
      assertThat(status(id)).isEqualTo(WithdrawalStatus.SUCCEEDED);
      assertPaidOnce(id);
    }
  }

  private WithdrawalJanitor janitor() {
    return withdrawals.janitor(clock);
  }

  private Settlement settlement(Gateway gateway) {
    return new Settlement(
        withdrawals.store(), gateway, withdrawals.timings(), withdrawals.backoff(), clock);
  }

  private String funded(String name) {
    String user = name + "-" + UUID.randomUUID().toString().substring(0, 8);
    assertThat(api.topUp(user, user.startsWith("pay-then-error") ? FUNDS : 1_000).status())
        .isEqualTo(200);
    return user;
  }

  private long request(String user, long fen) {
    var service =
        new WithdrawalService(
            withdrawals.store(),
            ForcedCredit.NONE,
            settlement(withdrawals.gateway()),
            task -> {},
            this.service.hongbao().parts().switches(),
            withdrawals.timings(),
            clock,
            ThreadLocalRandom.current()::nextLong);
    IdempotencyKey key =
        new IdempotencyKey(user, WithdrawalService.ENDPOINT, UUID.randomUUID().toString(), "h");
    return Long.parseLong(
        service
            .request(
                new WithdrawalRequest(user, fen, null),
                key,
                w -> new StoredAnswer("h", "ACCEPTED", Long.toString(w.id())))
            .payload());
  }

  private long balance(String user) {
    return api.get("/api/v1/wallet", api.token(user)).json().getLong("balance");
  }

  private WithdrawalStatus status(long id) {
    return withdrawals.store().find(id).orElseThrow().status();
  }

  private boolean settled(long id) {
    return status(id).settled();
  }

  private List<Booked> booked(List<String> users) {
    Set<String> wanted = new HashSet<>(users);
    return withdrawals.store().since(Instant.EPOCH, 1_000_000).stream()
        .filter(b -> wanted.contains(b.withdrawal().userId()))
        .toList();
  }

  private long count(List<String> users, Set<WithdrawalStatus> statuses) {
    return booked(users).stream().filter(b -> statuses.contains(b.withdrawal().status())).count();
  }

  /** The gateway's statements of yesterday, today and tomorrow, by out-trade-no. */
  private Map<String, List<StatementLine>> statement() {
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    List<StatementLine> lines = new ArrayList<>();
    for (LocalDate day = today.minusDays(1);
        !day.isAfter(today.plusDays(1));
        day = day.plusDays(1)) {
      lines.addAll(withdrawals.gateway().statement(day));
    }
    return lines.stream().collect(Collectors.groupingBy(StatementLine::outTradeNo));
  }

  private void assertPaidOnce(long id) {
    Withdrawal w = withdrawals.store().find(id).orElseThrow();
    assertThat(statement().get(w.outTradeNo()))
        .as("the gateway's statement for %s", w.outTradeNo())
        .singleElement()
        .satisfies(
            line -> {
              assertThat(line.paid()).isTrue();
              assertThat(line.amount()).isEqualTo(w.amount());
            });
  }

  private static long delta(JsonObject before, JsonObject after, String counter) {
    return after.getLong(counter) - before.getLong(counter);
  }

  private static String diff(JsonObject before, JsonObject after) {
    var out = new JsonObject();
    after.fieldNames().forEach(name -> out.put(name, delta(before, after, name)));
    return out.encode();
  }

  /** The process dying at a crash point: an Error, which nothing may catch and carry on. */
  static final class Killed extends Error {
    private static final long serialVersionUID = 1L;
  }

  /** The request reaches the gateway; the process dies before the answer arrives. */
  record DiesAfterSending(Gateway gateway) implements Gateway {
    @Override
    public TransferAnswer transfer(String outTradeNo, String userId, Amount amount) {
      gateway.transfer(outTradeNo, userId, amount);
      throw new Killed();
    }

    @Override
    public QueryAnswer query(String outTradeNo) {
      return gateway.query(outTradeNo);
    }
  }

  /** SENT is written; the process dies before a byte of the request leaves. */
  record DiesBeforeSending() implements Gateway {
    @Override
    public TransferAnswer transfer(String outTradeNo, String userId, Amount amount) {
      throw new Killed();
    }

    @Override
    public QueryAnswer query(String outTradeNo) {
      throw new AssertionError("a dead process asks nothing");
    }
  }
}

package hongbao.app.withdrawal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.WithdrawalParts;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.embedded.GatewaySimProcess;
import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.core.withdrawal.StatementLine;
import hongbao.core.withdrawal.Withdrawal;
import hongbao.core.withdrawal.WithdrawalBooks.Booked;
import hongbao.core.withdrawal.WithdrawalJanitor;
import hongbao.core.withdrawal.WithdrawalStatus;
import hongbao.gateway.GatewaySignature;
import hongbao.gateway.sim.SimulatorControl;
import hongbao.testkit.SimClock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The payment gateway killed with -9 while a batch of withdrawals is in flight, kept down while the
 * service goes on sending and asking, and restarted on its book at the same address. The kill cuts
 * off requests the gateway was holding and answers it had not sent; the design says that changes
 * nothing that matters: every withdrawal settles once, SUCCEEDED exactly where the gateway's book
 * says it paid, FAILED only on the gateway's own refusal with the money back in the wallet, nothing
 * paid twice. The book is forced to disk before the gateway answers, so the kill loses no payment
 * it acknowledged, and the reconciler finds nothing.
 *
 * <p>The class has a gateway, a Redis and a schema of its own: the gateway it kills serves no other
 * test, and its book holds exactly this service's withdrawals. The service runs without workers;
 * the janitors are the test's, on a clock it moves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayKillTest {

  /**
   * Some of every fault besides the kill: refusals so that some withdrawals fail, and held requests
   * (paid after the client gave up, or dropped) for the kill to cut off.
   */
  private static final List<String> FAULTS =
      List.of(
          "--error-rate", "0.05",
          "--timeout-rate", "0.05",
          "--pay-then-error-rate", "0.05",
          "--fail-rate", "0.1",
          "--duplicate-callback-rate", "0.1");

  /** Slow enough that the senders are still busy when a quarter of the batch has settled. */
  private static final String LATENCY_MILLIS = "40";

  private static final int USERS = 40;
  private static final int WITHDRAWALS = 400;
  private static final long FUNDS = 10_000;

  /** Ten withdrawals per user of at most this much never exceed the funds: none is refused. */
  private static final int AMOUNT_MAX = 500;

  private static final int KILL_AFTER_SETTLED = WITHDRAWALS / 4;
  private static final int JANITORS = 8;
  private static final Set<WithdrawalStatus> UNSETTLED =
      Set.of(WithdrawalStatus.REQUESTED, WithdrawalStatus.SENT, WithdrawalStatus.UNKNOWN);

  @TempDir static Path dir;

  private EmbeddedRedis redis;
  private GatewaySimProcess gateway;
  private TestService service;
  private Api api;
  private WithdrawalParts withdrawals;
  private Vertx vertx;
  private SimClock clock;

  @BeforeAll
  void start() {
    redis = EmbeddedRedis.start();
    try {
      gateway =
          GatewaySimProcess.start(
              Backends.GATEWAY_SECRET,
              book(),
              concat(
                  List.of(
                      "--latency-ms",
                      LATENCY_MILLIS,
                      "--hold-ms",
                      Integer.toString(Backends.GATEWAY_HOLD_MILLIS)),
                  FAULTS));
      String schema = "gateway_kill_" + Long.toString(System.nanoTime(), 36);
      service =
          TestService.start(
              new Backends(
                  "gateway-kill",
                  redis.url(),
                  Backends.embedded().jdbcUrl(),
                  schema,
                  gateway.url(),
                  Backends.GATEWAY_SECRET),
              Map.of(),
              false);
      api = service.api();
      withdrawals = service.hongbao().parts().withdrawals();
      vertx = Vertx.vertx();
    } catch (RuntimeException | Error e) {
      stop();
      throw e;
    }
  }

  @AfterEach
  void reconciles() {
    service.assertReconciled();
  }

  @AfterAll
  void stop() {
    try {
      if (vertx != null) {
        vertx.close().await();
      }
      if (service != null) {
        service.close();
      }
      if (gateway != null) {
        gateway.close();
      }
    } finally {
      redis.close();
    }
  }

  @Test
  void killedWithMinus9MidBatch_andRestartedOnItsBook_everyWithdrawalSettlesOnce_paidAsItsBookSays()
      throws Exception {
    Map<String, String> tokens = new HashMap<>();
    for (int u = 0; u < USERS; u++) {
      String user = "kill-" + u;
      assertThat(api.topUp(user, FUNDS).status()).isEqualTo(200);
      tokens.put(user, api.token(user));
    }
    List<String> users = List.copyOf(tokens.keySet());
    ExecutorService clients = Executors.newFixedThreadPool(16);
    try {
      List<Future<Response>> requests = requestBatch(clients, tokens, users);

      // kill -9 once a quarter of the batch has settled, the rest being requested and sent.
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> settledCount() >= KILL_AFTER_SETTLED);
      long killed = System.nanoTime();
      gateway.kill();
      long settledAtKill = settledCount();
      assertThat(settledAtKill).as("settled when the gateway was killed").isLessThan(WITHDRAWALS);

      // Down: requests are still accepted and debited, the senders find nobody to send to.
      List<String> ids = new ArrayList<>();
      for (Future<Response> request : requests) {
        Response answer = request.get(60, TimeUnit.SECONDS);
        assertThat(answer.status()).as(answer.raw()).isEqualTo(202);
        ids.add(answer.json().getString("id"));
      }
      assertThat(new HashSet<>(ids)).hasSize(WITHDRAWALS);
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> statusCount(WithdrawalStatus.REQUESTED, WithdrawalStatus.SENT) == 0);
      Outage outage = downAndAskedAbout(users);

      String address = gateway.url();
      gateway = gateway.restart();
      assertThat(gateway.url()).isEqualTo(address);
      long restarted = System.nanoTime();
      int[] rounds = {0};
      await()
          .atMost(Duration.ofSeconds(60))
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> {
                rounds[0]++;
                janitorRound();
                return statusCount(UNSETTLED.toArray(WithdrawalStatus[]::new)) == 0;
              });
      long settled = System.nanoTime();

      List<Booked> end = booked();
      assertPaidOnceAsTheBookSays(users, end);
      JsonObject stats = stats();
      assertThat(stats.getLong("transfersWithoutQuery"))
          .as("sent again after the restart without asking first")
          .isZero();
      long failed =
          end.stream().filter(b -> b.withdrawal().status() == WithdrawalStatus.FAILED).count();
      System.out.printf(
          "gateway kill: %d withdrawals, %d settled at the kill, %d unknown while down (%d of"
              + " them paid at the gateway, not yet known here); down %.1f s; after the restart"
              + " %d janitor rounds in %.1f s: %d succeeded, %d failed; restarted gateway %s%n",
          WITHDRAWALS,
          settledAtKill,
          outage.unknown(),
          outage.paidNotYetKnown(),
          (restarted - killed) / 1e9,
          rounds[0],
          (settled - restarted) / 1e9,
          WITHDRAWALS - failed,
          failed,
          stats.encode());
    } finally {
      clients.shutdownNow();
    }
  }

  /** What the service saw while the gateway was down. */
  record Outage(int unknown, long paidNotYetKnown) {}

  private List<Future<Response>> requestBatch(
      ExecutorService clients, Map<String, String> tokens, List<String> users) {
    var random = new SplittableRandom(29);
    List<Future<Response>> requests = new ArrayList<>();
    for (int i = 0; i < WITHDRAWALS; i++) {
      String token = tokens.get(users.get(i % USERS));
      String key = "kill-" + i;
      String body = JsonObject.of("amount", 1 + random.nextInt(AMOUNT_MAX)).encode();
      requests.add(
          clients.submit(
              () -> api.post("/api/v1/withdrawals", token, Map.of("Idempotency-Key", key), body)));
    }
    return requests;
  }

  /**
   * With the gateway down and every sender done: what settled, settled on the gateway's word (its
   * book kept it through the kill); the janitors ask about the rest and, hearing nothing, decide
   * nothing; the wallets and the in-flight money add up; the reconciler names only the statement it
   * cannot read.
   */
  private Outage downAndAskedAbout(List<String> users) throws Exception {
    Map<String, Line> book = onlyLinePerOutTradeNo(readBook());
    List<Booked> down = booked();
    assertThat(down).hasSize(WITHDRAWALS);
    assertSettledAsTheBookSays(down, book);
    assertWallets(users, down);
    List<Booked> unknown =
        down.stream().filter(b -> b.withdrawal().status() == WithdrawalStatus.UNKNOWN).toList();
    assertThat(unknown).as("unknown while the gateway is down").isNotEmpty();

    clock = new SimClock(Instant.now());
    janitorRound();
    Map<Long, Withdrawal> before = byId(down);
    List<Booked> asked = booked();
    assertThat(asked)
        .allSatisfy(
            b -> {
              Withdrawal was = before.get(b.withdrawal().id());
              assertThat(b.withdrawal().status()).isEqualTo(was.status());
              if (was.status() == WithdrawalStatus.UNKNOWN) {
                assertThat(b.withdrawal().checks()).isGreaterThan(was.checks());
              }
            });
    assertWallets(users, asked);
    // With the gateway down, each statement day that is over is named, and nothing else.
    assertThat(service.hongbao().parts().reconciler().reconcile().discrepancies())
        .isNotEmpty()
        .allSatisfy(
            line ->
                assertThat(line)
                    .startsWith("withdrawals: the gateway statement of ")
                    .contains("is unavailable"));
    return new Outage(
        unknown.size(),
        unknown.stream().filter(b -> book.containsKey(b.withdrawal().outTradeNo())).count());
  }

  /**
   * Every withdrawal settled once, as the gateway's book (and its statement, and the ledger's
   * gateway account) says: nothing paid twice, nothing paid here that it did not pay, no FAILED one
   * paid there, every FAILED one's money back in its wallet, nothing left in flight.
   */
  private void assertPaidOnceAsTheBookSays(List<String> users, List<Booked> end)
      throws IOException {
    List<Line> book = readBook();
    Map<String, Line> paidOrRefused = onlyLinePerOutTradeNo(book);
    assertThat(end).allSatisfy(b -> assertThat(b.withdrawal().status().settled()).isTrue());
    assertSettledAsTheBookSays(end, paidOrRefused);
    assertThat(paidOrRefused.keySet())
        .as("settled at the gateway, unknown here")
        .isSubsetOf(end.stream().map(b -> b.withdrawal().outTradeNo()).toList());
    assertThat(
            service
                .books()
                .column(
                    "SELECT withdrawal_id FROM withdrawal_transition"
                        + " WHERE to_status IN ('SUCCEEDED', 'FAILED')"
                        + " GROUP BY withdrawal_id HAVING count(*) <> 1"))
        .as("withdrawals settled more than once")
        .isEmpty();
    assertThat(
            service
                .books()
                .value(
                    "SELECT count(*) FROM withdrawal_transition"
                        + " WHERE to_status IN ('SUCCEEDED', 'FAILED')"))
        .isEqualTo(WITHDRAWALS);

    long succeededFen = fen(end, WithdrawalStatus.SUCCEEDED);
    long paidFen = book.stream().filter(Line::paid).mapToLong(Line::fen).sum();
    long statementFen =
        statement().stream().filter(StatementLine::paid).mapToLong(l -> l.amount().fen()).sum();
    assertThat(paidFen).as("the book's payments").isEqualTo(succeededFen);
    assertThat(statementFen).as("the statement's payments").isEqualTo(succeededFen);
    assertThat(service.books().value("SELECT balance FROM account WHERE id = 'gateway'"))
        .as("the ledger's gateway account")
        .isEqualTo(succeededFen);
    assertThat(end)
        .filteredOn(b -> b.withdrawal().status() == WithdrawalStatus.FAILED)
        .isNotEmpty()
        .allSatisfy(
            b -> {
              assertThat(b.returned()).isEqualTo(b.withdrawal().amount());
              assertThat(b.paid().fen()).isZero();
            });
    assertThat(end).allSatisfy(b -> assertThat(b.inFlight().fen()).isZero());
    assertWallets(users, end);
  }

  // ------------------------------------------------------------------------------- helpers

  /**
   * A settled withdrawal agrees with the gateway's book: SUCCEEDED where it paid that amount,
   * FAILED where it refused for good or after every retryable refusal (each a "not paid"), never
   * for want of an answer.
   */
  private void assertSettledAsTheBookSays(List<Booked> withdrawals, Map<String, Line> book) {
    int refusalsMax = this.withdrawals.timings().refusalsMax();
    for (Booked b : withdrawals) {
      Withdrawal w = b.withdrawal();
      Line line = book.get(w.outTradeNo());
      switch (w.status()) {
        case SUCCEEDED -> {
          assertThat(line).as("%s SUCCEEDED, not paid at the gateway", w.outTradeNo()).isNotNull();
          assertThat(line.paid()).as(w.outTradeNo()).isTrue();
          assertThat(line.fen()).as(w.outTradeNo()).isEqualTo(w.amount().fen());
          assertThat(b.paid()).isEqualTo(w.amount());
        }
        case FAILED -> {
          assertThat(line == null ? w.refusals() >= refusalsMax : !line.paid())
              .as("%s FAILED (%s) but the gateway's book has %s", w.outTradeNo(), w.cause(), line)
              .isTrue();
          assertThat(b.returned()).isEqualTo(w.amount());
        }
        case REQUESTED, SENT, UNKNOWN -> assertThat(b.inFlight()).isEqualTo(w.amount());
      }
    }
  }

  /** Each wallet holds its top-up less what the gateway paid and what is still in flight. */
  private void assertWallets(List<String> users, List<Booked> withdrawals) {
    Map<String, Long> gone = new HashMap<>();
    for (Booked b : withdrawals) {
      Withdrawal w = b.withdrawal();
      if (w.status() != WithdrawalStatus.FAILED) {
        gone.merge(w.userId(), w.amount().fen(), Long::sum);
      }
    }
    for (String user : users) {
      assertThat(
              service.books().value("SELECT balance FROM account WHERE id = ?", "wallet:" + user))
          .as("wallet of %s", user)
          .isEqualTo(FUNDS - gone.getOrDefault(user, 0L));
    }
  }

  /** Concurrent janitors on the test's clock, moved past every backoff, until none is due. */
  private void janitorRound() throws Exception {
    clock.advance(withdrawals.timings().backoffMax().plusMinutes(1));
    ExecutorService janitors = Executors.newFixedThreadPool(JANITORS);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int j = 0; j < JANITORS; j++) {
        WithdrawalJanitor janitor = withdrawals.janitor(clock);
        running.add(
            janitors.submit(
                () -> {
                  // Each pass takes up the next batch that is due, until none is.
                  int passes = 0;
                  while (passes < 1_000 && janitor.settleOnce() > 0) {
                    passes++;
                  }
                }));
      }
      for (Future<?> janitor : running) {
        janitor.get(60, TimeUnit.SECONDS);
      }
    } finally {
      janitors.shutdownNow();
    }
  }

  private long settledCount() {
    return statusCount(WithdrawalStatus.SUCCEEDED, WithdrawalStatus.FAILED);
  }

  private long statusCount(WithdrawalStatus... statuses) {
    String names =
        Arrays.stream(statuses).map(s -> "'" + s.name() + "'").collect(Collectors.joining(", "));
    return service.books().value("SELECT count(*) FROM withdrawal WHERE status IN (" + names + ")");
  }

  private List<Booked> booked() {
    return withdrawals.store().since(Instant.EPOCH, 1_000_000);
  }

  private static Map<Long, Withdrawal> byId(List<Booked> booked) {
    return booked.stream()
        .map(Booked::withdrawal)
        .collect(Collectors.toMap(Withdrawal::id, Function.identity()));
  }

  private static long fen(List<Booked> booked, WithdrawalStatus status) {
    return booked.stream()
        .map(Booked::withdrawal)
        .filter(w -> w.status() == status)
        .mapToLong(w -> w.amount().fen())
        .sum();
  }

  /** The gateway's statements of yesterday, today and tomorrow. */
  private List<StatementLine> statement() {
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    List<StatementLine> lines = new ArrayList<>();
    for (LocalDate day = today.minusDays(1);
        !day.isAfter(today.plusDays(1));
        day = day.plusDays(1)) {
      lines.addAll(withdrawals.gateway().statement(day));
    }
    return lines;
  }

  private JsonObject stats() {
    try (var control =
        new SimulatorControl(
            vertx, URI.create(gateway.url()), new GatewaySignature(Backends.GATEWAY_SECRET))) {
      return control.stats();
    }
  }

  /** One settlement in the gateway's book file. */
  record Line(String outTradeNo, long fen, boolean paid) {}

  /**
   * The book as the gateway left it on disk ({@code outTradeNo,userId,amountFen,SUCCESS|FAIL,...}),
   * every line, before the gateway's own reading merges anything.
   */
  private static List<Line> readBook() throws IOException {
    List<Line> lines = new ArrayList<>();
    for (String row : Files.readAllLines(book(), StandardCharsets.UTF_8)) {
      String[] cells = row.split(",", -1);
      if (cells.length != 7) {
        continue; // a torn last line: never answered, cut off when the gateway opens the book
      }
      lines.add(new Line(cells[0], Long.parseLong(cells[2]), "SUCCESS".equals(cells[3])));
    }
    return lines;
  }

  /** The book by out-trade-no, which it holds once at most: paid or refused once, ever. */
  private static Map<String, Line> onlyLinePerOutTradeNo(List<Line> book) {
    Map<String, List<Line>> byNo = book.stream().collect(Collectors.groupingBy(Line::outTradeNo));
    assertThat(byNo.values())
        .as("out-trade-nos settled twice by the gateway")
        .allSatisfy(lines -> assertThat(lines).hasSize(1));
    return byNo.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().getFirst()));
  }

  private static Path book() {
    return dir.resolve("book.csv");
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}

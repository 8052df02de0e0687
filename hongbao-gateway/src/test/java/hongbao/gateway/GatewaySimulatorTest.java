package hongbao.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.money.Amount;
import hongbao.core.withdrawal.GatewayNotice;
import hongbao.core.withdrawal.QueryAnswer;
import hongbao.core.withdrawal.StatementLine;
import hongbao.core.withdrawal.TransferAnswer;
import hongbao.gateway.sim.Faults;
import hongbao.gateway.sim.GatewaySimulator;
import hongbao.gateway.sim.SimulatorControl;
import hongbao.gateway.sim.SimulatorOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP adapter against the simulator, fault by fault: every answer a real gateway gives maps to
 * the right outcome, the simulator pays each out-trade-no at most once and remembers it across a
 * restart, and its callbacks are signed.
 */
class GatewaySimulatorTest {

  private static final String SECRET = "test-secret-0123456789";
  private static final Duration TIMEOUT = Duration.ofMillis(300);
  private static final Duration HOLD = Duration.ofMillis(600);

  @TempDir Path dir;
  private Vertx vertx;
  private GatewaySimulator simulator;
  private HttpGateway gateway;
  private SimulatorControl control;
  private final AtomicInteger numbers = new AtomicInteger();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    simulator = simulator(Faults.NONE, 1);
    gateway = gateway(SECRET, () -> null);
    control =
        new SimulatorControl(
            vertx,
            URI.create("http://127.0.0.1:" + simulator.port()),
            new GatewaySignature(SECRET));
  }

  @AfterEach
  void stop() {
    control.close();
    gateway.close();
    simulator.close();
    vertx.close().await();
  }

  private GatewaySimulator simulator(Faults faults, long seed) {
    return GatewaySimulator.start(
        vertx,
        new SimulatorOptions(
            "127.0.0.1", 0, SECRET, dir.resolve("book.csv"), faults, Duration.ofMillis(2), HOLD),
        Clock.systemUTC(),
        new SplittableRandom(seed));
  }

  private HttpGateway gateway(String secret, java.util.function.Supplier<String> notifyUrl) {
    return new HttpGateway(
        vertx,
        URI.create("http://127.0.0.1:" + simulator.port()),
        new GatewaySignature(secret),
        TIMEOUT,
        notifyUrl);
  }

  private String no() {
    return "T" + numbers.incrementAndGet() + "x" + System.nanoTime() % 1_000_000;
  }

  @Test
  void pays_andPaysAnOutTradeNoOnlyOnce() {
    String no = no();
    var first = gateway.transfer(no, "alice", Amount.fen(500));
    var again = gateway.transfer(no, "alice", Amount.fen(500));

    assertThat(first).isInstanceOf(TransferAnswer.Success.class);
    assertThat(again).isEqualTo(first);
    assertThat(gateway.query(no))
        .isEqualTo(
            new QueryAnswer.Success(
                ((TransferAnswer.Success) first).gatewayRef(), Amount.fen(500)));
    assertThat(control.stats().getLong("paid")).isEqualTo(1);
    assertThat(control.stats().getLong("transfersOfSettled")).isEqualTo(1);
    assertThat(control.stats().getLong("transfersWithoutQuery")).isEqualTo(1);
    List<StatementLine> statement = gateway.statement(LocalDate.now(ZoneOffset.UTC));
    assertThat(statement)
        .filteredOn(l -> l.outTradeNo().equals(no))
        .singleElement()
        .satisfies(l -> assertThat(l.paid()).isTrue());
  }

  @Test
  void systemError_leavesNothing_andPayThenError_leavesAPayment() {
    control.faults(new Faults(1, 0, 0, 0, 0));
    String errored = no();
    assertThat(gateway.transfer(errored, "alice", Amount.fen(1)))
        .isInstanceOf(TransferAnswer.SystemError.class);
    control.faults(new Faults(0, 0, 1, 0, 0));
    String paidThenErrored = no();
    assertThat(gateway.transfer(paidThenErrored, "alice", Amount.fen(1)))
        .isInstanceOf(TransferAnswer.SystemError.class);
    control.faults(Faults.NONE);

    assertThat(gateway.query(errored)).isEqualTo(new QueryAnswer.NotFound());
    assertThat(gateway.query(paidThenErrored)).isInstanceOf(QueryAnswer.Success.class);
  }

  @Test
  void timeouts_areNoAnswers_someDroppedSomePaidLate_theLateOnesProcessingMeanwhile() {
    control.faults(new Faults(0, 1, 0, 0, 0));
    Set<Class<?>> outcomes = new HashSet<>();
    boolean sawProcessing = false;
    for (int i = 0; i < 12 && outcomes.size() < 2; i++) {
      String no = no();
      control.faults(new Faults(0, 1, 0, 0, 0));
      assertThat(gateway.transfer(no, "alice", Amount.fen(7)))
          .isInstanceOf(TransferAnswer.NoAnswer.class);
      control.faults(Faults.NONE);
      QueryAnswer meanwhile = gateway.query(no);
      sawProcessing |= meanwhile instanceof QueryAnswer.Processing;
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> !(gateway.query(no) instanceof QueryAnswer.Processing));
      outcomes.add(gateway.query(no).getClass());
    }
    assertThat(outcomes)
        .containsExactlyInAnyOrder(QueryAnswer.NotFound.class, QueryAnswer.Success.class);
    assertThat(sawProcessing).isTrue();
  }

  @Test
  void refusals_retryableLeaveNothing_finalOnesCloseTheNumber() {
    control.faults(new Faults(0, 0, 0, 1, 0));
    Set<Boolean> retryable = new HashSet<>();
    for (int i = 0; i < 20 && retryable.size() < 2; i++) {
      String no = no();
      var answer = (TransferAnswer.Fail) gateway.transfer(no, "alice", Amount.fen(3));
      retryable.add(answer.retryable());
      QueryAnswer after = gateway.query(no);
      if (answer.retryable()) {
        assertThat(after).isEqualTo(new QueryAnswer.NotFound());
      } else {
        assertThat(after).isEqualTo(new QueryAnswer.Fail("PAYEE_ACCOUNT_ABNORMAL"));
        control.faults(Faults.NONE);
        assertThat(gateway.transfer(no, "alice", Amount.fen(3)))
            .isEqualTo(new TransferAnswer.Fail("PAYEE_ACCOUNT_ABNORMAL", false));
        control.faults(new Faults(0, 0, 0, 1, 0));
      }
    }
    assertThat(retryable).containsExactlyInAnyOrder(true, false);
  }

  @Test
  void aWrongSecret_isRefused_asAnUnknownOutcome() {
    try (HttpGateway impostor = gateway("another-secret-012345", () -> null)) {
      String no = no();
      assertThat(impostor.transfer(no, "alice", Amount.fen(1)))
          .isEqualTo(new TransferAnswer.SystemError("HTTP 401"));
      assertThat(impostor.query(no)).isInstanceOf(QueryAnswer.NoAnswer.class);
      assertThat(gateway.query(no)).isEqualTo(new QueryAnswer.NotFound());
    }
  }

  @Test
  void callbacks_areSigned_andMayComeTwice() {
    List<Optional<GatewayNotice>> received = new CopyOnWriteArrayList<>();
    var notices = new SignedNotices(new GatewaySignature(SECRET));
    HttpServer receiver =
        vertx
            .createHttpServer()
            .requestHandler(
                request ->
                    request
                        .body()
                        .onSuccess(
                            body -> {
                              received.add(
                                  notices.open(
                                      body.toString(),
                                      request.getHeader(GatewayProtocol.SIGNATURE_HEADER)));
                              request.response().end("{\"code\":\"SUCCESS\"}");
                            }))
            .listen(0, "127.0.0.1")
            .await();
    String url = "http://127.0.0.1:" + receiver.actualPort() + "/notify";
    control.faults(new Faults(0, 0, 0, 0, 1));
    try (HttpGateway notified = gateway(SECRET, () -> url)) {
      String no = no();
      notified.transfer(no, "alice", Amount.fen(9));

      await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 2);
      assertThat(received)
          .allSatisfy(
              notice ->
                  assertThat(notice)
                      .hasValueSatisfying(
                          n -> {
                            assertThat(n.outTradeNo()).isEqualTo(no);
                            assertThat(n.answer()).isInstanceOf(QueryAnswer.Success.class);
                          }));
    } finally {
      receiver.close().await();
    }
    assertThat(notices.open("{\"outTradeNo\":\"X\",\"result\":\"SUCCESS\"}", "00")).isEmpty();
  }

  @Test
  void theBook_survivesARestart_andATornLastLine() throws IOException {
    String no = no();
    gateway.transfer(no, "alice", Amount.fen(42));
    simulator.close();
    Files.writeString(dir.resolve("book.csv"), "T999,bob,5,SUCC", StandardOpenOption.APPEND);

    simulator = simulator(Faults.NONE, 2);
    try (HttpGateway restarted = gateway(SECRET, () -> null)) {
      assertThat(restarted.query(no)).isInstanceOf(QueryAnswer.Success.class);
      assertThat(restarted.query("T999")).isEqualTo(new QueryAnswer.NotFound());
      String next = no();
      assertThat(restarted.transfer(next, "bob", Amount.fen(5)))
          .isInstanceOf(TransferAnswer.Success.class);
      assertThat(restarted.statement(LocalDate.now(ZoneOffset.UTC)))
          .extracting(StatementLine::outTradeNo)
          .contains(no, next)
          .doesNotContain("T999");
    }
    assertThat(Files.readAllLines(dir.resolve("book.csv"))).hasSize(2);
  }
}

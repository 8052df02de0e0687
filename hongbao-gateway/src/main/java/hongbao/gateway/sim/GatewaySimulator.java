package hongbao.gateway.sim;

import hongbao.core.money.Amount;
import hongbao.gateway.GatewayProtocol;
import hongbao.gateway.GatewaySignature;
import hongbao.gateway.sim.GatewayBook.Entry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A payment gateway that fails the way real ones do, for running withdrawals end to end: it pays
 * each out-trade-no at most once and keeps what it paid in its own durable book, and it answers
 * SYSTEM_ERROR, times out (having paid or not), pays and then says SYSTEM_ERROR, refuses, and calls
 * back twice, at the rates of its {@link Faults}. Everything runs on one event loop, so the book,
 * the seeded random source and the counters need no further locking.
 *
 * <p>Besides the protocol of {@link GatewayProtocol} it serves {@code GET /v1/stats} (what it saw,
 * including transfers re-sent without a query in between) and {@code PUT /v1/faults} (new rates, at
 * once), both signed, and an unsigned {@code GET /health}.
 */
public final class GatewaySimulator implements AutoCloseable {

  public static final String FAULTS = "/v1/faults";
  public static final String STATS = "/v1/stats";

  private static final Logger LOG = LoggerFactory.getLogger(GatewaySimulator.class);
  private static final int BODY_LIMIT_BYTES = 16 * 1024;
  private static final int CALLBACK_ATTEMPTS = 3;

  private final Vertx vertx;
  private final SimulatorOptions options;
  private final GatewaySignature signature;
  private final GatewayBook book;
  private final Clock clock;
  private final RandomGenerator random;
  private final WebClient callbacks;
  private final SimulatorStats stats = new SimulatorStats();
  private final Map<String, Character> lastCall = new HashMap<>();
  private volatile Faults faults;
  private HttpServer server;

  private GatewaySimulator(
      Vertx vertx, SimulatorOptions options, Clock clock, RandomGenerator random) {
    this.vertx = vertx;
    this.options = options;
    this.signature = new GatewaySignature(options.secret());
    this.book = GatewayBook.open(options.book());
    this.clock = clock;
    this.random = random;
    this.callbacks = WebClient.create(vertx);
    this.faults = options.faults();
  }

  /** Opens the book and listens; blocks until the port is bound. */
  public static GatewaySimulator start(
      Vertx vertx, SimulatorOptions options, Clock clock, RandomGenerator random) {
    GatewaySimulator simulator = new GatewaySimulator(vertx, options, clock, random);
    try {
      simulator.server =
          vertx
              .createHttpServer()
              .requestHandler(simulator.router())
              .listen(options.port(), options.host())
              .await();
    } catch (RuntimeException e) {
      simulator.book.close();
      throw e;
    }
    LOG.info(
        "gateway simulator on {}:{}, book {} ({} settled), faults {}",
        options.host(),
        simulator.port(),
        options.book(),
        simulator.book.size(),
        options.faults());
    return simulator;
  }

  public int port() {
    return server.actualPort();
  }

  public void setFaults(Faults faults) {
    this.faults = faults;
  }

  private Router router() {
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT_BYTES));
    router.get("/health").handler(ctx -> ctx.json(new JsonObject().put("status", "UP")));
    router.route("/v1/*").handler(this::requireSignature);
    router.post(GatewayProtocol.TRANSFERS).handler(this::transfer);
    router.get(GatewayProtocol.TRANSFERS + "/:no").handler(this::query);
    router.get(GatewayProtocol.STATEMENTS + "/:day").handler(this::statement);
    router.get(STATS).handler(ctx -> ctx.json(stats.toJson()));
    router.put(FAULTS).handler(this::setFaults);
    return router;
  }

  private void requireSignature(RoutingContext ctx) {
    Buffer raw = ctx.body().buffer();
    String body = raw == null ? "" : raw.toString();
    String purpose = GatewaySignature.request(ctx.request().method().name(), ctx.request().path());
    if (!signature.verify(
        purpose, body, ctx.request().getHeader(GatewayProtocol.SIGNATURE_HEADER))) {
      ctx.response()
          .setStatusCode(401)
          .end(new JsonObject().put("result", "FAIL").put("reason", "SIGNATURE_ERROR").encode());
      return;
    }
    ctx.next();
  }

  // ------------------------------------------------------------------------------- transfers

  private void transfer(RoutingContext ctx) {
    JsonObject body = jsonBody(ctx);
    String no = body == null ? null : body.getString("outTradeNo");
    Object amountValue = body == null ? null : body.getValue("amount");
    String user = body == null ? null : body.getString("userId");
    if (no == null
        || !GatewayProtocol.OUT_TRADE_NO.matcher(no).matches()
        || user == null
        || !(amountValue instanceof Number number)
        || number.longValue() <= 0) {
      reply(ctx, fail("PARAM_ERROR", false));
      return;
    }
    Amount amount = Amount.fen(((Number) amountValue).longValue());
    String notifyUrl = body.getString("notifyUrl");
    stats.transfers++;
    if (Character.valueOf('T').equals(lastCall.put(no, 'T'))) {
      stats.transfersWithoutQuery++;
    }
    Optional<Entry> settled = book.find(no);
    if (settled.isPresent()) {
      // Idempotent by out-trade-no: the settlement again, nothing paid.
      stats.transfersOfSettled++;
      later(ctx, () -> answer(settled.get()));
      return;
    }
    if (!book.startProcessing(no)) {
      later(ctx, () -> systemError("ORDER_PROCESSING"));
      return;
    }
    misbehaveOrPay(ctx, no, user, amount, notifyUrl);
  }

  private void misbehaveOrPay(
      RoutingContext ctx, String no, String user, Amount amount, String notifyUrl) {
    Faults now = faults;
    double draw = random.nextDouble();
    if ((draw -= now.errorRate()) < 0) {
      book.abandon(no);
      stats.systemErrors++;
      later(ctx, () -> systemError("SYSTEMERROR"));
    } else if ((draw -= now.timeoutRate()) < 0) {
      stats.timeouts++;
      if (random.nextBoolean()) {
        book.abandon(no); // dropped before processing: nothing happened
        vertx.setTimer(holdMillis(), t -> ctx.request().connection().close());
      } else {
        vertx.setTimer(
            holdMillis(), t -> reply(ctx, answer(settle(no, user, amount, null, notifyUrl))));
      }
    } else if ((draw -= now.payThenErrorRate()) < 0) {
      stats.payThenErrors++;
      later(
          ctx,
          () -> {
            settle(no, user, amount, null, notifyUrl);
            return systemError("SYSTEMERROR");
          });
    } else if ((draw -= now.failRate()) < 0) {
      if (random.nextBoolean()) {
        book.abandon(no);
        stats.refused++;
        later(ctx, () -> fail("FREQUENCY_LIMITED", true));
      } else {
        later(ctx, () -> answer(settle(no, user, amount, "PAYEE_ACCOUNT_ABNORMAL", notifyUrl)));
      }
    } else {
      later(ctx, () -> answer(settle(no, user, amount, null, notifyUrl)));
    }
  }

  /** Pays ({@code reason} null) or finally refuses, durably, then calls back. */
  private Entry settle(String no, String user, Amount amount, String reason, String notifyUrl) {
    Entry entry =
        book.settle(
            new Entry(
                no,
                user,
                amount,
                reason == null,
                reason == null ? "-" : reason,
                String.format("G%012d", book.size() + 1),
                clock.instant()));
    if (entry.paid()) {
      stats.paid++;
    } else {
      stats.refused++;
    }
    callBack(notifyUrl, entry);
    return entry;
  }

  // --------------------------------------------------------------------------------- queries

  private void query(RoutingContext ctx) {
    String no = ctx.pathParam("no");
    stats.queries++;
    lastCall.put(no, 'Q');
    Faults now = faults;
    double draw = random.nextDouble();
    if ((draw -= now.errorRate()) < 0) {
      stats.systemErrors++;
      later(ctx, () -> systemError("SYSTEMERROR"));
    } else if ((draw -= now.timeoutRate()) < 0) {
      stats.timeouts++;
      vertx.setTimer(holdMillis(), t -> ctx.request().connection().close());
    } else {
      later(
          ctx,
          () -> {
            Optional<Entry> settled = book.find(no);
            if (settled.isPresent()) {
              return answer(settled.get()).put("at", settled.get().at().toString());
            }
            return new JsonObject()
                .put(
                    "result",
                    book.isProcessing(no) ? GatewayProtocol.PROCESSING : GatewayProtocol.NOT_FOUND);
          });
    }
  }

  // ------------------------------------------------------------------------------ statements

  private void statement(RoutingContext ctx) {
    LocalDate day;
    try {
      day = LocalDate.parse(ctx.pathParam("day"));
    } catch (DateTimeParseException e) {
      ctx.response().setStatusCode(400).end("day must be yyyy-MM-dd");
      return;
    }
    var csv = new StringBuilder(GatewayProtocol.STATEMENT_HEADER).append('\n');
    for (Entry entry : book.day(day)) {
      csv.append(entry.outTradeNo())
          .append(',')
          .append(entry.amount().fen())
          .append(',')
          .append(entry.paid() ? GatewayProtocol.SUCCESS : GatewayProtocol.FAIL)
          .append(',')
          .append(entry.at())
          .append('\n');
    }
    signed(ctx, csv.toString())
        .putHeader("content-type", "text/csv; charset=utf-8")
        .end(csv.toString());
  }

  private void setFaults(RoutingContext ctx) {
    JsonObject body = jsonBody(ctx);
    try {
      faults = Faults.fromJson(body == null ? new JsonObject() : body);
    } catch (IllegalArgumentException | ClassCastException e) {
      ctx.response().setStatusCode(400).end(String.valueOf(e.getMessage()));
      return;
    }
    LOG.info("gateway simulator faults now {}", faults);
    ctx.json(faults.toJson());
  }

  // ------------------------------------------------------------------------------- callbacks

  private void callBack(String notifyUrl, Entry entry) {
    if (notifyUrl == null
        || !(notifyUrl.startsWith("http://") || notifyUrl.startsWith("https://"))) {
      return;
    }
    JsonObject notice =
        new JsonObject()
            .put("outTradeNo", entry.outTradeNo())
            .put("result", entry.paid() ? GatewayProtocol.SUCCESS : GatewayProtocol.FAIL)
            .put("gatewayRef", entry.gatewayRef())
            .put("amount", entry.amount().fen())
            .put("reason", entry.paid() ? null : entry.reason());
    String body = notice.encode();
    String signed = signature.sign(GatewaySignature.NOTICE, body);
    vertx.setTimer(latencyMillis(), t -> deliver(notifyUrl, body, signed, 1));
    if (random.nextDouble() < faults.duplicateCallbackRate()) {
      stats.duplicateCallbacks++;
      vertx.setTimer(latencyMillis() + 1, t -> deliver(notifyUrl, body, signed, 1));
    }
  }

  private void deliver(String url, String body, String signed, int attempt) {
    stats.callbacks++;
    callbacks
        .postAbs(url)
        .timeout(5_000)
        .putHeader("content-type", "application/json")
        .putHeader(GatewayProtocol.SIGNATURE_HEADER, signed)
        .sendBuffer(Buffer.buffer(body))
        .onComplete(
            result -> {
              boolean delivered = result.succeeded() && result.result().statusCode() == 200;
              if (!delivered && attempt < CALLBACK_ATTEMPTS) {
                vertx.setTimer(200L * attempt, t -> deliver(url, body, signed, attempt + 1));
              }
            });
  }

  // --------------------------------------------------------------------------------- answers

  private static JsonObject answer(Entry entry) {
    return entry.paid()
        ? new JsonObject()
            .put("result", GatewayProtocol.SUCCESS)
            .put("gatewayRef", entry.gatewayRef())
            .put("amount", entry.amount().fen())
        : fail(entry.reason(), false);
  }

  private static JsonObject fail(String reason, boolean retryable) {
    return new JsonObject()
        .put("result", GatewayProtocol.FAIL)
        .put("reason", reason)
        .put("retryable", retryable);
  }

  private static JsonObject systemError(String message) {
    return new JsonObject().put("result", GatewayProtocol.SYSTEM_ERROR).put("message", message);
  }

  /** Answers after the simulated latency, with what {@code answer} computes then. */
  private void later(RoutingContext ctx, java.util.function.Supplier<JsonObject> answer) {
    vertx.setTimer(latencyMillis(), t -> reply(ctx, answer.get()));
  }

  private void reply(RoutingContext ctx, JsonObject answer) {
    // A held request's client is gone; its answer goes nowhere, as on a real network.
    if (!ctx.response().ended() && !ctx.response().closed()) {
      String body = answer.encode();
      signed(ctx, body).putHeader("content-type", "application/json").end(body);
    }
  }

  /** The response, carrying the signature of {@code body} as the answer to this request. */
  private HttpServerResponse signed(RoutingContext ctx, String body) {
    String purpose = GatewaySignature.answer(ctx.request().method().name(), ctx.request().path());
    return ctx.response()
        .putHeader(GatewayProtocol.SIGNATURE_HEADER, signature.sign(purpose, body));
  }

  private long latencyMillis() {
    long latency = options.latency().toMillis();
    // Vert.x timers take at least 1 ms.
    return Math.max(1, latency / 2 + random.nextLong(latency + 1));
  }

  private long holdMillis() {
    return Math.max(1, options.hold().toMillis());
  }

  private static JsonObject jsonBody(RoutingContext ctx) {
    try {
      Buffer raw = ctx.body().buffer();
      return raw == null || raw.length() == 0 ? null : raw.toJsonObject();
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  @Override
  public void close() {
    try {
      if (server != null) {
        server.close().await();
      }
      callbacks.close();
    } finally {
      book.close();
    }
  }

  /** The hold, for tests that wait out a timed-out request. */
  public Duration hold() {
    return options.hold();
  }
}

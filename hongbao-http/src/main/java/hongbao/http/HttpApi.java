package hongbao.http;

import hongbao.core.details.Boxes;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ledger.TopUpService;
import hongbao.core.ops.Switch;
import hongbao.core.packet.PacketType;
import hongbao.core.packet.SendRequest;
import hongbao.core.packet.SendRules;
import hongbao.core.password.PasswordMatch;
import hongbao.core.reconcile.Reconciliation;
import hongbao.core.reward.RewardStatement;
import hongbao.core.reward.RewardTokens;
import hongbao.core.send.SendService;
import hongbao.http.auth.Caller;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The HTTP contract of API.md. Every request passes the checks in the contract's order: body size
 * (413), authentication (401), admin (403), validation (400), then the operation, whose domain
 * rejections map to their status in {@link ErrorTable}. Grabs stay on the event loop end to end;
 * anything touching the ledger runs on a virtual thread.
 */
public final class HttpApi implements AutoCloseable {

  public static final int MAX_BODY_BYTES = 16 * 1024;

  /**
   * The routes that carry a client's reward tokens take as many as the contract allows, each as
   * long as a token may be (with its quotes and comma), on top of the rest of the body.
   */
  public static final int TOKEN_LIST_BODY_BYTES =
      MAX_BODY_BYTES + RewardStatement.MAX_CLIENT_TOKENS * (RewardTokens.MAX_CHARS + 3);

  /**
   * A campaign may have 24 rounds of 20 prize lines: some 40 KB with long type names, more than the
   * default limit.
   */
  public static final int CAMPAIGN_BODY_BYTES = 64 * 1024;

  /** The web UI's files, served from the jar. */
  public static final String WEB_ROOT = "webroot";

  private static final String CALLER = "caller";
  private static final String JSON = "application/json; charset=utf-8";
  private static final Duration DEV_TOKEN_LIFETIME = Duration.ofDays(30);

  private final Vertx vertx;
  private final HttpServices services;
  private final HttpServerSettings settings;
  private final Render render;
  private final Blocking blocking = new Blocking();
  private final Timer grabLatency;
  private final Counter sends;
  private final Counter topUps;

  /** Found by the latest reconciliation this instance ran; -1 before the first. */
  private final java.util.concurrent.atomic.AtomicLong discrepancies =
      new java.util.concurrent.atomic.AtomicLong(-1);

  /** The grab SLO's buckets: what the latency alerts and dashboards are written against. */
  static final Duration[] GRAB_LATENCY_BUCKETS = {
    Duration.ofMillis(1).dividedBy(2),
    Duration.ofMillis(1),
    Duration.ofMillis(2),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofSeconds(1)
  };

  private final Map<Class<?>, Counter> grabOutcomes = new java.util.HashMap<>();
  private final ActivityRoutes activities;
  private final java.util.List<Routes> extensions =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  /** More routes, mounted by {@link #router()} after authentication and before the web UI. */
  public interface Routes {
    void mount(Router router);
  }

  /** The readiness check under way; callers arriving meanwhile share it instead of piling up. */
  private final AtomicReference<CompletableFuture<Boolean>> readiness = new AtomicReference<>();

  /** The metrics scrape under way, shared the same way. */
  private final AtomicReference<CompletableFuture<String>> scraping = new AtomicReference<>();

  public HttpApi(Vertx vertx, HttpServices services, HttpServerSettings settings) {
    this.vertx = vertx;
    this.services = services;
    this.settings = settings;
    this.activities = new ActivityRoutes(services.activities(), services.packetIds(), blocking);
    this.render = new Render(services.packetIds(), activities::encode);
    this.grabLatency =
        Timer.builder("hongbao.grab.latency")
            .description("grab requests from arrival to answer")
            .serviceLevelObjectives(GRAB_LATENCY_BUCKETS)
            .register(services.metrics());
    this.sends =
        Counter.builder("hongbao.sends")
            .description("packets sent (funded and armed), replays of a stored answer not counted")
            .register(services.metrics());
    this.topUps =
        Counter.builder("hongbao.topups")
            .description("wallet top-ups made, replays of a stored answer not counted")
            .register(services.metrics());
    io.micrometer.core.instrument.Gauge.builder(
            "hongbao.reconciliation.discrepancies", discrepancies, AtomicLongValue::of)
        .description("discrepancies the latest reconciliation found (-1: none run yet)")
        .register(services.metrics());
    for (Class<?> outcome : GrabOutcome.class.getPermittedSubclasses()) {
      grabOutcomes.put(
          outcome,
          Counter.builder("hongbao.grabs")
              .tag("outcome", Outcomes.name(outcome))
              .description("grabs answered, by outcome")
              .register(services.metrics()));
    }
  }

  /**
   * Starts one server on the settings' host and {@code port}. Several may listen on one port:
   * Vert.x spreads the connections over their event loops.
   */
  public Future<HttpServer> listen(int port) {
    return vertx
        .createHttpServer(settings.options(port))
        .requestHandler(new RequestFraming(router(), services.metrics()))
        .invalidRequestHandler(Failures::invalidRequest)
        .exceptionHandler(Failures::connectionFault)
        .listen();
  }

  /** Adds a feature's routes (before the first {@link #router()}). */
  public HttpApi with(Routes routes) {
    extensions.add(routes);
    return this;
  }

  public Router router() {
    Router router = Router.router(vertx);
    // One reading of the routes, for the request timer's labels and the unrouted API paths.
    var templates = new RouteTemplates(router);
    router.route().method(HttpMethod.HEAD).handler(HeadRequests::asGet);
    router.route().handler(new RequestTelemetry(services.metrics(), templates, requestIdPrefix()));
    router.route().handler(UriEscapes::check);
    router.route().handler(new BodyDeadlines(vertx, settings.bodyTimeout())::start);
    // Before the default limit: the first body handler a request meets reads its body.
    // Named apart: a body limit is no resource (a feature that is off mounts no route behind it).
    var tokenLists = new JsonBodies(TOKEN_LIST_BODY_BYTES);
    router
        .post("/api/v1/rewards/statement")
        .setName(RouteTemplates.NO_RESOURCE)
        .handler(tokenLists);
    router.post("/api/v1/withdrawals").setName(RouteTemplates.NO_RESOURCE).handler(tokenLists);
    var campaigns = new JsonBodies(CAMPAIGN_BODY_BYTES);
    router.post("/api/v1/admin/campaigns").setName(RouteTemplates.NO_RESOURCE).handler(campaigns);
    router
        .put("/api/v1/admin/campaigns/:id")
        .setName(RouteTemplates.NO_RESOURCE)
        .handler(campaigns);
    router.route().handler(new JsonBodies(MAX_BODY_BYTES));
    router.route().failureHandler(Failures::reply);
    for (int status : new int[] {400, 404, 405, 413, 500}) {
      router.errorHandler(status, Failures::reply);
    }
    router.get("/health").handler(ctx -> json(ctx, 200, new JsonObject().put("status", "UP")));
    router.get("/ready").handler(this::ready);
    router.get("/metrics").handler(this::metrics);
    router.post("/api/v1/dev/tokens").handler(this::devToken);
    router.route("/api/*").handler(this::authenticate);
    router.route("/api/v1/admin/*").handler(this::requireAdmin);
    router.post("/api/v1/admin/topups").handler(this::topUp);
    router.get("/api/v1/admin/switches").handler(this::switches);
    router.put("/api/v1/admin/switches/:name").handler(this::setSwitch);
    router.get("/api/v1/admin/reconciliation").handler(this::reconcile);
    router.get("/api/v1/wallet").handler(this::wallet);
    router.post("/api/v1/packets").handler(this::send);
    router.get("/api/v1/packets").handler(this::list);
    router.get("/api/v1/packets/:id").handler(this::details);
    router.post("/api/v1/packets/:id/grab").handler(this::grab);
    router.post("/api/v1/packets/:id/claims").handler(this::claim);
    activities.mount(router);
    new WithdrawalRoutes(services, blocking).mount(router);
    extensions.forEach(routes -> routes.mount(router));
    new ApiDescription().mount(router);
    router.route("/api/*").handler(new UnroutedApiRequests(templates));
    router.get("/*").handler(StaticPaths::refuseEncodedSeparators);
    router
        .get("/*")
        .handler(
            StaticHandler.create(WEB_ROOT).setCachingEnabled(false).setIndexPage("index.html"));
    return router;
  }

  // --- operations -------------------------------------------------------------------------

  /**
   * 200 when every dependency answers within the ready timeout, else 503. A dependency that
   * black-holes would hold the check for its own timeouts (seconds); a probe needs its answer in
   * about a second, and one check at a time is enough however many probes ask.
   */
  private void ready(RoutingContext ctx) {
    Promise<Boolean> answer = Promise.promise();
    long timer =
        vertx.setTimer(settings.readyTimeout().toMillis(), late -> answer.tryComplete(false));
    Future.fromCompletionStage(readinessCheck(), vertx.getOrCreateContext())
        .onComplete(
            result -> {
              vertx.cancelTimer(timer);
              answer.tryComplete(result.succeeded() && result.result());
            });
    answer
        .future()
        .onSuccess(
            up ->
                json(
                    ctx,
                    up ? 200 : 503,
                    new JsonObject().put("status", up ? "READY" : "UNAVAILABLE")));
  }

  private CompletableFuture<Boolean> readinessCheck() {
    return shared(readiness, () -> services.ready().getAsBoolean());
  }

  /** The work under way in {@code slot}, or {@code work} started there if none is. */
  private <T> CompletableFuture<T> shared(
      AtomicReference<CompletableFuture<T>> slot, Callable<T> work) {
    while (true) {
      CompletableFuture<T> current = slot.get();
      if (current != null && !current.isDone()) {
        return current;
      }
      var next = new CompletableFuture<T>();
      if (slot.compareAndSet(current, next)) {
        blocking.start(work, next);
        return next;
      }
    }
  }

  /**
   * Off the event loop: some gauges read Redis (the payout backlog, the reward streams' lag), and
   * the Redis link's connections live on the event loops, so waiting for them there could hang. One
   * scrape at a time, shared by the requests that come while it runs: {@code /metrics} asks for no
   * token, and each scrape runs a script over every payout shard on the Redis that serves grabs.
   */
  private void metrics(RoutingContext ctx) {
    Future.fromCompletionStage(
            shared(scraping, () -> services.metrics().scrape()), ctx.vertx().getOrCreateContext())
        .onComplete(
            scraped -> {
              if (scraped.failed()) {
                ctx.fail(scraped.cause());
                return;
              }
              ctx.response()
                  .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
                  .end(scraped.result());
            });
  }

  private void devToken(RoutingContext ctx) {
    if (!services.devMode()) {
      throw ApiError.notFound("dev tokens are only available in dev mode");
    }
    JsonFields body = JsonFields.parse(ctx.body().buffer(), "userId", "admin");
    String userId = userId(body.requiredString("userId"));
    boolean admin = body.optionalBoolean("admin", false);
    String token = services.tokens().mint(userId, admin, DEV_TOKEN_LIFETIME);
    json(ctx, 200, new JsonObject().put("token", token));
  }

  // --- auth ---------------------------------------------------------------------------------

  private void authenticate(RoutingContext ctx) {
    List<String> sent = ctx.request().headers().getAll("Authorization");
    if (sent.size() > 1) {
      // Served as the first, the request could be limited or audited by a proxy as the other.
      throw new ApiError(401, "UNAUTHENTICATED", "send one Authorization header, not several");
    }
    String header = sent.isEmpty() ? null : sent.get(0);
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new ApiError(401, "UNAUTHENTICATED", "a bearer token is required");
    }
    Caller caller =
        services
            .tokens()
            .verify(header.substring(7).trim())
            .orElseThrow(
                () -> new ApiError(401, "UNAUTHENTICATED", "the token is invalid or expired"));
    ctx.put(CALLER, caller);
    ctx.next();
  }

  private void requireAdmin(RoutingContext ctx) {
    if (!caller(ctx).admin()) {
      throw new ApiError(403, "FORBIDDEN", "an admin token is required");
    }
    ctx.next();
  }

  static Caller caller(RoutingContext ctx) {
    return ctx.get(CALLER);
  }

  // --- money --------------------------------------------------------------------------------

  private void topUp(RoutingContext ctx) {
    JsonFields body = JsonFields.parse(ctx.body().buffer(), "userId", "amount");
    String userId = userId(body.requiredString("userId"));
    long amount = body.requiredInteger("amount");
    IdempotencyKey key = idempotencyKey(ctx, TopUpService.ENDPOINT, body);
    var rendered = new FirstExecution();
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () ->
                rendered.count(
                    services
                        .topUps()
                        .topUp(
                            userId,
                            amount,
                            key,
                            balance ->
                                rendered.made(
                                    AnswerKind.DONE.answer(
                                        key,
                                        new JsonObject()
                                            .put("userId", userId)
                                            .put("balance", balance.fen())))),
                    topUps))
        .onComplete(result -> replay(ctx, result));
  }

  private void wallet(RoutingContext ctx) {
    int limit = intParam(ctx, "limit", 100, 1, 500);
    String userId = caller(ctx).userId();
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> services.wallets().wallet(userId, limit))
        .onComplete(result -> answer(ctx, result.map(render::wallet)));
  }

  private void send(RoutingContext ctx) {
    Caller caller = caller(ctx);
    JsonFields body =
        JsonFields.parse(
            ctx.body().buffer(),
            "amount",
            "count",
            "type",
            "greeting",
            "expiresInSeconds",
            "password",
            "recipients",
            "passwordMatch",
            "activityId");
    var request =
        new SendRequest(
            caller.userId(),
            body.requiredInteger("amount"),
            body.requiredInteger("count"),
            body.requiredEnum("type", PacketType.class),
            body.optionalString("greeting"),
            body.optionalInteger("expiresInSeconds"),
            body.optionalString("password"),
            body.optionalStrings("recipients"),
            passwordMatch(body),
            activityId(body));
    IdempotencyKey key = idempotencyKey(ctx, SendService.ENDPOINT, body);
    var rendered = new FirstExecution();
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () ->
                rendered.count(
                    services
                        .send()
                        .send(
                            request,
                            key,
                            packet ->
                                rendered.made(AnswerKind.CREATED.answer(key, render.sent(packet)))),
                    sends))
        .onComplete(result -> replay(ctx, result));
  }

  /** {@code "EXACT"}, {@code "PINYIN"} or an integer percentage 50-100; null when absent. */
  private static PasswordMatch passwordMatch(JsonFields body) {
    Object value = body.json().getValue("passwordMatch");
    if (value == null) {
      return null;
    }
    if (value.equals("EXACT") || value.equals("PINYIN")) {
      return PasswordMatch.parse((String) value).orElseThrow();
    }
    if (value instanceof Integer percent
        && percent >= PasswordMatch.FUZZY_MIN_PERCENT
        && percent <= PasswordMatch.FUZZY_MAX_PERCENT) {
      return new PasswordMatch.Fuzzy(percent);
    }
    throw ApiError.invalid(
        "passwordMatch must be EXACT, PINYIN or an integer percentage from 50 to 100");
  }

  /** 0 when absent; -1 (no such activity, found out in order) for an id never given out. */
  private long activityId(JsonFields body) {
    String text = body.optionalString("activityId");
    return text == null ? 0 : activities.decode(text);
  }

  // --- packets ------------------------------------------------------------------------------

  private void grab(RoutingContext ctx) {
    long started = System.nanoTime();
    Caller caller = caller(ctx);
    // The contract's order: the request itself (400), the caller's pace (429), then the grab
    // service's own: the switch (503) before the packet (404), so an unknown id tells no more than
    // a known one would. An id never handed out reaches it as -1.
    String password = JsonFields.parse(ctx.body().buffer(), "password").optionalString("password");
    if (!services.grabLimiter().tryGrab(caller.userId())) {
      throw new ApiError(429, "RATE_LIMITED", "too many grabs; slow down");
    }
    long id = services.packetIds().decode(ctx.pathParam("id"));
    var context = (ContextInternal) ctx.vertx().getOrCreateContext();
    services
        .grab()
        .grab(id, caller.userId(), password)
        .whenComplete(
            (outcome, failure) -> {
              // The store's reply normally completes on this request's own event loop (the Redis
              // link has a connection per loop): answer right here instead of queueing a task
              // for the same thread. From anywhere else (the slow path, a timeout), hand it over.
              if (context.inThread()) {
                context.dispatch(() -> answerGrab(ctx, outcome, failure, started));
              } else {
                context.runOnContext(ignored -> answerGrab(ctx, outcome, failure, started));
              }
            });
  }

  /**
   * Writes the outcome's bytes (see {@link Outcomes#answer}); a failure or an unknown packet goes
   * to the handlers.
   */
  private void answerGrab(
      RoutingContext ctx, GrabOutcome outcome, Throwable failure, long startedNanos) {
    if (failure == null && outcome instanceof GrabOutcome.NotFound) {
      ctx.fail(ApiError.notFound("no such packet"));
      return;
    }
    writeGrab(ctx, outcome, failure);
    grabLatency.record(System.nanoTime() - startedNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  private void writeGrab(RoutingContext ctx, GrabOutcome outcome, Throwable failure) {
    if (failure != null) {
      ctx.fail(failure);
      return;
    }
    grabOutcomes.get(outcome.getClass()).increment();
    Buffer answer;
    try {
      answer = Outcomes.answer(outcome);
    } catch (RuntimeException refused) {
      ctx.fail(refused);
      return;
    }
    ctx.response().setStatusCode(200).putHeader("content-type", JSON).end(answer);
  }

  /** A grab receipt presented again: put back a grab the store lost, or say what became of it. */
  private void claim(RoutingContext ctx) {
    Caller caller = caller(ctx);
    long id = packetId(ctx.pathParam("id"));
    String receipt = JsonFields.parse(ctx.body().buffer(), "receipt").requiredString("receipt");
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () -> services.claims().claim(id, caller.userId(), receipt))
        .onComplete(result -> answer(ctx, result.map(Outcomes::toJson)));
  }

  private void details(RoutingContext ctx) {
    long id = packetId(ctx.pathParam("id"));
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> services.details().details(id))
        .onComplete(result -> answer(ctx, result.map(d -> render.details(d, true))));
  }

  private void list(RoutingContext ctx) {
    String boxName = ctx.request().getParam("box");
    Boxes.Box box;
    if ("sent".equals(boxName)) {
      box = Boxes.Box.SENT;
    } else if ("received".equals(boxName)) {
      box = Boxes.Box.RECEIVED;
    } else {
      throw ApiError.invalid("box must be sent or received");
    }
    int limit = intParam(ctx, "limit", 20, 1, Boxes.MAX_PAGE);
    String cursorText = ctx.request().getParam("cursor");
    Long cursor = null;
    if (cursorText != null && !cursorText.isEmpty()) {
      long decoded = services.packetIds().decode(cursorText);
      if (decoded < 0) {
        throw ApiError.invalid("cursor is not a cursor this service gave out");
      }
      cursor = decoded;
    }
    String userId = caller(ctx).userId();
    Long before = cursor;
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () -> services.boxes().page(box, userId, before, limit))
        .onComplete(
            result ->
                answer(
                    ctx,
                    result.map(
                        page -> {
                          var items = new JsonArray();
                          page.items().forEach(item -> items.add(render.boxItem(item)));
                          return new JsonObject()
                              .put("items", items)
                              .put(
                                  "nextCursor",
                                  page.nextCursor() == null
                                      ? null
                                      : services.packetIds().encode(page.nextCursor()));
                        })));
  }

  // --- admin --------------------------------------------------------------------------------

  private void switches(RoutingContext ctx) {
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> services.switches().all())
        .onComplete(result -> answer(ctx, result.map(HttpApi::switchesJson)));
  }

  private void setSwitch(RoutingContext ctx) {
    // The request itself (400) before the switch it names (404), as the contract orders them.
    JsonFields body = JsonFields.parse(ctx.body().buffer(), "enabled");
    if (!(body.json().getValue("enabled") instanceof Boolean enabled)) {
      throw ApiError.invalid("enabled must be true or false");
    }
    Switch which =
        Switch.byKey(ctx.pathParam("name")).orElseThrow(() -> ApiError.notFound("no such switch"));
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> services.switches().set(which, enabled))
        .onComplete(result -> answer(ctx, result.map(HttpApi::switchesJson)));
  }

  private static JsonObject switchesJson(Map<Switch, Boolean> switches) {
    var json = new JsonObject();
    var ordered = new EnumMap<Switch, Boolean>(switches);
    ordered.forEach((which, enabled) -> json.put(which.key(), enabled));
    return json;
  }

  /**
   * {@code scope=all} (the default) checks every packet; {@code scope=changes} only those touched
   * since the last clean run, for a periodic check that stays cheap as packets pile up.
   */
  private void reconcile(RoutingContext ctx) {
    String scope = Objects.requireNonNullElse(textParam(ctx, "scope"), "all");
    var reconciler = services.reconciler();
    java.util.concurrent.Callable<Reconciliation> run =
        switch (scope) {
          case "all" -> reconciler::reconcile;
          case "changes" -> reconciler::reconcileChanges;
          default -> throw ApiError.invalid("scope must be all or changes");
        };
    blocking
        .call(ctx.vertx().getOrCreateContext(), run)
        .onComplete(result -> answer(ctx, result.map(this::reconciliationJson)));
  }

  private JsonObject reconciliationJson(Reconciliation reconciliation) {
    discrepancies.set(reconciliation.discrepancies().size());
    return new JsonObject()
        .put("ok", reconciliation.ok())
        .put("packetsChecked", reconciliation.packetsChecked())
        .put("discrepancies", new JsonArray(reconciliation.discrepancies()));
  }

  // --- request and response helpers ---------------------------------------------------------

  static IdempotencyKey idempotencyKey(RoutingContext ctx, String endpoint, JsonFields body) {
    List<String> sent = ctx.request().headers().getAll("Idempotency-Key");
    if (sent.size() > 1) {
      // Which one a retry repeats, or a proxy in front keeps, nobody can tell.
      throw ApiError.invalid("header Idempotency-Key must be sent once");
    }
    String key = sent.isEmpty() ? null : sent.get(0);
    if (key == null || key.isEmpty() || key.length() > 128) {
      throw ApiError.invalid("header Idempotency-Key (1 to 128 characters) is required");
    }
    return new IdempotencyKey(
        caller(ctx).userId(), endpoint, key, CanonicalJson.digest(body.json()));
  }

  private static String userId(String userId) {
    if (!SendRules.isUserId(userId)) {
      throw ApiError.invalid("userId must be 1-64 characters of [A-Za-z0-9_.@-]");
    }
    return userId;
  }

  private long packetId(String text) {
    long id = services.packetIds().decode(text);
    if (id < 0) {
      throw ApiError.notFound("no such packet");
    }
    return id;
  }

  /** A query parameter's value; null when absent or empty, as every parameter of the API. */
  static String textParam(RoutingContext ctx, String name) {
    String text = ctx.request().getParam(name);
    return text == null || text.isEmpty() ? null : text;
  }

  static int intParam(RoutingContext ctx, String name, int absent, int min, int max) {
    String text = textParam(ctx, name);
    if (text == null) {
      return absent;
    }
    try {
      int value = Integer.parseInt(text);
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // falls through to the same answer as an out-of-range value
    }
    throw ApiError.invalid(name + " must be an integer from " + min + " to " + max);
  }

  static void replay(RoutingContext ctx, io.vertx.core.AsyncResult<StoredAnswer> result) {
    if (result.failed()) {
      ctx.fail(result.cause());
      return;
    }
    StoredAnswer answer = result.result();
    ctx.response()
        .setStatusCode(AnswerKind.of(answer).status)
        .putHeader("content-type", JSON)
        .end(answer.payload());
  }

  static void answer(RoutingContext ctx, io.vertx.core.AsyncResult<JsonObject> result) {
    if (result.failed()) {
      ctx.fail(result.cause());
      return;
    }
    json(ctx, 200, result.result());
  }

  static void json(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("content-type", JSON).end(body.encode());
  }

  /** A gauge's reading of a counter it does not own. */
  private static final class AtomicLongValue {
    static double of(java.util.concurrent.atomic.AtomicLong value) {
      return value.get();
    }
  }

  /**
   * Sets this instance's request ids apart from other instances' and earlier runs': the process's
   * id and start time (a fact about the process, not a reading of the clock while serving).
   */
  private static String requestIdPrefix() {
    ProcessHandle self = ProcessHandle.current();
    long started = self.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    return Long.toString(self.pid(), 36) + Long.toString(started % 1_000_000_000L, 36) + "-";
  }

  @Override
  public void close() {
    blocking.close();
  }
}

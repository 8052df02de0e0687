package hongbao.http;

import com.nimbusds.jwt.SignedJWT;
import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.campaign.TradeNos;
import hongbao.core.reward.FailureLog;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardCampaigns;
import hongbao.core.reward.RewardFailures;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardQueues;
import hongbao.core.reward.RewardRequest;
import hongbao.core.reward.RewardSender;
import hongbao.core.reward.RewardStatement;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.RewardTypes;
import hongbao.core.reward.SendOutcome;
import hongbao.core.reward.TokenVerifier;
import hongbao.core.reward.VirtualQueue;
import hongbao.http.auth.Caller;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The reward routes of API.md part 2: reward types (admin), SendBonus over HTTP (admin or an issuer
 * token), token verification, the statement, and a minimal campaign funding endpoint for operators
 * until campaigns proper exist. Everything touching Redis or PostgreSQL runs on a virtual thread.
 */
public final class RewardRoutes implements HttpApi.Routes, AutoCloseable {

  private static final String JSON = "application/json; charset=utf-8";

  private final RewardSender sender;
  private final TokenVerifier verifier;
  private final RewardStatement statements;
  private final RewardTypes types;
  private final RewardCampaigns campaigns;
  private final RewardFailures failures;
  private final Predicate<String> isRain;
  private final Blocking blocking = new Blocking();

  public RewardRoutes(
      RewardSender sender,
      TokenVerifier verifier,
      RewardStatement statements,
      RewardTypes types,
      RewardCampaigns campaigns,
      RewardFailures failures,
      Predicate<String> isRain) {
    this.sender = sender;
    this.verifier = verifier;
    this.statements = statements;
    this.types = types;
    this.campaigns = campaigns;
    this.failures = failures;
    this.isRain = isRain;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/v1/admin/reward-types").handler(this::listTypes);
    router.put("/api/v1/admin/reward-types/:type").handler(this::putType);
    router.post("/api/v1/admin/reward-campaigns").handler(this::openCampaign);
    router.get("/api/v1/admin/reward-failures").handler(this::listFailures);
    router.post("/api/v1/admin/reward-failures/retry").handler(this::retryFailure);
    router.post("/api/v1/rewards").handler(this::send);
    router.post("/api/v1/rewards/tokens/verify").handler(this::verify);
    router.post("/api/v1/rewards/statement").handler(this::statement);
  }

  // --- the failure stream ------------------------------------------------------------------

  private void listFailures(RoutingContext ctx) {
    int limit = HttpApi.intParam(ctx, "limit", 100, 1, 500);
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> failures.list(limit))
        .onComplete(
            result ->
                HttpApi.answer(
                    ctx,
                    result.map(
                        list -> {
                          var items = new JsonArray();
                          list.forEach(failure -> items.add(failureJson(failure)));
                          return new JsonObject().put("items", items);
                        })));
  }

  private static JsonObject failureJson(FailureLog.Failure failure) {
    Reward reward = failure.reward();
    return new JsonObject()
        .put("tradeNo", reward.tradeNo())
        .put("userId", reward.userId())
        .put("campaignId", reward.campaignId())
        .put("type", reward.type())
        .put("amount", reward.amount().fen())
        .put("reason", failure.reason());
  }

  private void retryFailure(RoutingContext ctx) {
    String tradeNo = JsonFields.parse(ctx.body().buffer(), "tradeNo").requiredString("tradeNo");
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> failures.retry(tradeNo))
        .onComplete(
            result -> {
              if (result.succeeded() && result.result() != RewardFailures.Retry.QUEUED) {
                ctx.fail(
                    ApiError.notFound(
                        result.result() == RewardFailures.Retry.NOT_FOUND
                            ? "no failed reward of that tradeNo (retried already?)"
                            : "its reward type is not defined: define it, then retry"));
                return;
              }
              HttpApi.answer(
                  ctx,
                  result.map(
                      queued -> new JsonObject().put("tradeNo", tradeNo).put("retried", true)));
            });
  }

  // --- reward types -------------------------------------------------------------------------

  private void listTypes(RoutingContext ctx) {
    var items = new JsonArray();
    types.all().forEach(type -> items.add(typeJson(type)));
    json(ctx, 200, new JsonObject().put("items", items));
  }

  private void putType(RoutingContext ctx) {
    String name = ctx.pathParam("type");
    if (!RewardType.NAME.matcher(name).matches()) {
      throw ApiError.invalid("type must be 1-32 characters of [A-Z0-9_]");
    }
    JsonFields body =
        JsonFields.parse(
            ctx.body().buffer(), "kind", "ratePerSecond", "burst", "fused", "queue", "issuerUrl");
    long rate = body.requiredInteger("ratePerSecond");
    Long burst = body.optionalInteger("burst");
    String queue = body.optionalString("queue");
    RewardType type;
    try {
      type =
          new RewardType(
              name,
              body.requiredEnum("kind", RewardKind.class),
              rate,
              burst != null ? burst : Math.max(1, rate / 10),
              body.optionalBoolean("fused", false),
              queue == null ? VirtualQueue.MASSIVE : enumOf(VirtualQueue.class, "queue", queue),
              body.optionalString("issuerUrl"));
    } catch (RejectedException e) {
      throw ApiError.invalid(e.getMessage());
    }
    checkCallable(type.issuerUrl());
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> types.put(type))
        .onComplete(result -> answer(ctx, 200, result.map(RewardRoutes::typeJson)));
  }

  /**
   * Refuses an issuerUrl the issuer's HTTP client could not call: one that does not parse as a URI
   * (a space in it, say), names no host or a port out of range. Every reward of such a type would
   * fail its issue, retried and parked until it went to the failure stream. {@link RewardType}
   * checks only the scheme and the length, so that a type stored before this check still loads.
   */
  private static void checkCallable(String issuerUrl) {
    if (issuerUrl == null) {
      return;
    }
    URI uri;
    try {
      uri = new URI(issuerUrl);
    } catch (URISyntaxException e) {
      throw ApiError.invalid(
          "issuerUrl is not a URL: " + e.getReason() + " at index " + e.getIndex());
    }
    if (uri.getHost() == null) {
      throw ApiError.invalid("issuerUrl names no host");
    }
    if (uri.getPort() > 65_535) {
      throw ApiError.invalid("issuerUrl's port is out of range");
    }
  }

  private static JsonObject typeJson(RewardType type) {
    return new JsonObject()
        .put("type", type.type())
        .put("kind", type.kind().name())
        .put("ratePerSecond", type.ratePerSecond())
        .put("burst", type.burst())
        .put("fused", type.fused())
        .put("queue", type.queue().name())
        .put("issuerUrl", type.issuerUrl());
  }

  // --- campaigns ----------------------------------------------------------------------------

  private void openCampaign(RoutingContext ctx) {
    JsonFields body = JsonFields.parse(ctx.body().buffer(), "campaignId", "budget");
    String campaignId = body.requiredString("campaignId");
    long budget = body.requiredInteger("budget");
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> campaigns.open(campaignId, budget))
        .onComplete(
            result ->
                answer(
                    ctx,
                    result.succeeded() && result.result() ? 201 : 200,
                    result.map(
                        created ->
                            new JsonObject()
                                .put("campaignId", campaignId)
                                .put("budget", budget)
                                .put("created", created))));
  }

  // --- rewards ------------------------------------------------------------------------------

  private void send(RoutingContext ctx) {
    Caller caller = HttpApi.caller(ctx);
    if (!caller.admin() && !isIssuer(ctx)) {
      throw new ApiError(403, "FORBIDDEN", "an admin or issuer token is required");
    }
    JsonFields body =
        JsonFields.parse(
            ctx.body().buffer(),
            "tradeNo",
            "userId",
            "campaignId",
            "scene",
            "type",
            "amount",
            "desc");
    String mode = HttpApi.textParam(ctx, "mode");
    if (mode != null && !mode.equals("sync") && !mode.equals("async")) {
      throw ApiError.invalid("mode must be sync or async");
    }
    boolean sync = "sync".equals(mode);
    var request =
        new RewardRequest(
            body.requiredString("tradeNo"),
            body.requiredString("userId"),
            body.requiredString("campaignId"),
            stringOr(body.optionalString("scene"), ""),
            body.requiredString("type"),
            body.requiredInteger("amount"),
            stringOr(body.optionalString("desc"), ""));
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () -> {
              refuseWinSpace(request);
              return sync ? sender.sendSync(request) : sender.send(request);
            })
        .onComplete(
            result -> {
              if (result.failed()) {
                ctx.fail(
                    result.cause() instanceof RewardQueues.QueuesFull
                        ? new ApiError(503, "UNAVAILABLE", "the reward queues are down")
                        : result.cause());
                return;
              }
              reply(ctx, result.result());
            });
  }

  /**
   * A rain's wins are sent under {@code <campaignId>_<round>_<userId>_<n>}, and a tradeNo is
   * global: that space is the rain's own, whichever campaign a request names. The campaign is
   * looked up only for a tradeNo of that form, after the fields' own rules (their 400s first; for
   * any other tradeNo the sender checks them, once).
   */
  private void refuseWinSpace(RewardRequest request) {
    Optional<String> rain = TradeNos.rainOf(request.tradeNo());
    if (rain.isEmpty()) {
      return;
    }
    request.check();
    if (isRain.test(rain.get())) {
      throw new RejectedException(
          Rejection.INVALID_REQUEST,
          "tradeNos of the form "
              + rain.get()
              + "_<round>_<userId>_<n> are the wins of the red-packet rain "
              + rain.get()
              + ": use another tradeNo");
    }
  }

  /** The outcome's own answer, not the request's mode: a replay answers as its first send did. */
  private static void reply(RoutingContext ctx, SendOutcome outcome) {
    switch (outcome) {
      case SendOutcome.Accepted accepted ->
          json(ctx, 202, sent(accepted.tradeNo(), accepted.token(), "ACCEPTED"));
      case SendOutcome.Credited credited ->
          json(ctx, 200, sent(credited.tradeNo(), credited.token(), "CREDITED"));
      case SendOutcome.IssuerFailed failed ->
          ctx.fail(new ApiError(502, "ISSUER_FAILED", "the issuer failed: " + failed.reason()));
    }
  }

  private static JsonObject sent(String tradeNo, String token, String status) {
    return new JsonObject().put("tradeNo", tradeNo).put("token", token).put("status", status);
  }

  /** The bearer token was verified by authentication; here only its issuer claim is read. */
  private static boolean isIssuer(RoutingContext ctx) {
    try {
      String header = ctx.request().getHeader("Authorization");
      Object claim =
          SignedJWT.parse(header.substring(7).trim()).getJWTClaimsSet().getClaim("issuer");
      return Boolean.TRUE.equals(claim);
    } catch (java.text.ParseException | RuntimeException e) {
      return false;
    }
  }

  private void verify(RoutingContext ctx) {
    Caller caller = HttpApi.caller(ctx);
    String token = JsonFields.parse(ctx.body().buffer(), "token").requiredString("token");
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () -> verifier.verify(token, caller.userId(), caller.admin()))
        .onComplete(
            result ->
                answer(
                    ctx,
                    200,
                    result.map(
                        v -> {
                          var json =
                              new JsonObject()
                                  .put("validity", v.validity().name())
                                  .put("tradeNo", null)
                                  .put("userId", null)
                                  .put("type", null)
                                  .put("amount", null)
                                  .put("credited", v.credited());
                          if (v.reward() != null) {
                            json.put("tradeNo", v.reward().tradeNo())
                                .put("userId", v.reward().userId())
                                .put("type", v.reward().type())
                                .put("amount", v.reward().amount().fen());
                          }
                          return json;
                        })));
  }

  private void statement(RoutingContext ctx) {
    Caller caller = HttpApi.caller(ctx);
    List<String> tokens = JsonFields.parse(ctx.body().buffer(), "tokens").optionalStrings("tokens");
    List<String> clientTokens = tokens == null ? List.of() : tokens;
    if (clientTokens.size() > RewardStatement.MAX_CLIENT_TOKENS) {
      throw ApiError.invalid("at most " + RewardStatement.MAX_CLIENT_TOKENS + " tokens");
    }
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () -> statements.statement(caller.userId(), clientTokens))
        .onComplete(
            result ->
                answer(
                    ctx,
                    200,
                    result.map(
                        s -> {
                          var items = new JsonArray();
                          for (RewardStatement.Item item : s.items()) {
                            items.add(
                                new JsonObject()
                                    .put("tradeNo", item.reward().tradeNo())
                                    .put("type", item.reward().type())
                                    .put("amount", item.reward().amount().fen())
                                    .put("desc", item.reward().desc())
                                    .put("at", Render.time(item.reward().awardedAt()))
                                    .put("status", item.credited() ? "CREDITED" : "PENDING"));
                          }
                          return new JsonObject()
                              .put("items", items)
                              .put("pendingAmount", s.pendingAmount().fen())
                              .put("creditedAmount", s.creditedAmount().fen());
                        })));
  }

  // --- helpers ------------------------------------------------------------------------------

  private static <E extends Enum<E>> E enumOf(Class<E> type, String field, String name) {
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException e) {
      throw ApiError.invalid(
          field + " must be one of " + java.util.Arrays.toString(type.getEnumConstants()));
    }
  }

  private static String stringOr(String value, String absent) {
    return value == null ? absent : value;
  }

  private static void answer(
      RoutingContext ctx, int status, io.vertx.core.AsyncResult<JsonObject> result) {
    if (result.failed()) {
      ctx.fail(result.cause());
      return;
    }
    json(ctx, status, result.result());
  }

  private static void json(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("content-type", JSON).end(body.encode());
  }

  @Override
  public void close() {
    blocking.close();
  }
}

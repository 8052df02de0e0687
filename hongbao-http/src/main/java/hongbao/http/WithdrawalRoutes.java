package hongbao.http;

import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.withdrawal.GatewayCallbacks;
import hongbao.core.withdrawal.Transition;
import hongbao.core.withdrawal.Withdrawal;
import hongbao.core.withdrawal.WithdrawalRequest;
import hongbao.core.withdrawal.WithdrawalService;
import hongbao.core.withdrawal.WithdrawalStatus;
import hongbao.http.auth.Caller;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * The withdrawal endpoints of the contract, and the payment gateway's callback. Withdrawals are
 * answered 202 PENDING at once; REQUESTED, SENT and UNKNOWN are all PENDING to clients, who need
 * not know how unsure the service is, only whether their money arrived (SUCCEEDED) or came back
 * (FAILED). The callback sits outside {@code /api} because the gateway has no user token: its
 * signature is its authentication.
 */
public final class WithdrawalRoutes {

  /** Where the payment gateway posts its callbacks. */
  public static final String CALLBACK_PATH = "/gateway/callbacks";

  private static final String ID_PREFIX = "w_";

  private final WithdrawalService withdrawals;
  private final GatewayCallbacks callbacks;
  private final PacketIds ids;
  private final Blocking blocking;

  WithdrawalRoutes(HttpServices services, Blocking blocking) {
    this.withdrawals = services.withdrawals();
    this.callbacks = services.gatewayCallbacks();
    this.ids = services.packetIds();
    this.blocking = blocking;
  }

  void mount(Router router) {
    router.post("/api/v1/withdrawals").handler(this::request);
    router.get("/api/v1/withdrawals").handler(this::list);
    router.get("/api/v1/withdrawals/:id").handler(this::details);
    router.post("/api/v1/admin/withdrawals/:id/fail").handler(this::closeUnpaid);
    router.post(CALLBACK_PATH).handler(this::callback);
  }

  private void request(RoutingContext ctx) {
    Caller caller = HttpApi.caller(ctx);
    JsonFields body = JsonFields.parse(ctx.body().buffer(), "amount", "tokens");
    var request =
        new WithdrawalRequest(
            caller.userId(), body.requiredInteger("amount"), body.optionalStrings("tokens"));
    IdempotencyKey key = HttpApi.idempotencyKey(ctx, WithdrawalService.ENDPOINT, body);
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () ->
                withdrawals.request(
                    request, key, w -> AnswerKind.ACCEPTED.answer(key, accepted(w))))
        .onComplete(result -> HttpApi.replay(ctx, result));
  }

  private void details(RoutingContext ctx) {
    Caller caller = HttpApi.caller(ctx);
    long id = decode(ctx.pathParam("id"));
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> withdrawals.details(id))
        .onComplete(
            result ->
                HttpApi.answer(
                    ctx,
                    result.map(
                        found -> {
                          var details =
                              found.orElseThrow(() -> ApiError.notFound("no such withdrawal"));
                          Withdrawal w = details.withdrawal();
                          if (!w.userId().equals(caller.userId()) && !caller.admin()) {
                            throw new ApiError(403, "FORBIDDEN", "not your withdrawal");
                          }
                          return caller.admin() ? withHistory(details) : view(w);
                        })));
  }

  /** An operator's close of a withdrawal the gateway will not settle (admin, by its path). */
  private void closeUnpaid(RoutingContext ctx) {
    long id = decode(ctx.pathParam("id"));
    String reason = JsonFields.parse(ctx.body().buffer(), "reason").requiredString("reason");
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> withdrawals.closeUnpaid(id, reason))
        .onComplete(
            result ->
                HttpApi.answer(
                    ctx,
                    result.map(
                        found ->
                            withHistory(
                                found.orElseThrow(
                                    () -> ApiError.notFound("no such withdrawal"))))));
  }

  private void list(RoutingContext ctx) {
    int limit = HttpApi.intParam(ctx, "limit", 20, 1, WithdrawalService.PAGE_MAX);
    String cursorText = ctx.request().getParam("cursor");
    Long before = null;
    if (cursorText != null && !cursorText.isEmpty()) {
      long decoded = ids.decode(cursorText);
      if (decoded < 0) {
        throw ApiError.invalid("cursor is not a cursor this service gave out");
      }
      before = decoded;
    }
    String userId = HttpApi.caller(ctx).userId();
    Long cursor = before;
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> withdrawals.page(userId, cursor, limit))
        .onComplete(
            result ->
                HttpApi.answer(
                    ctx,
                    result.map(
                        page -> {
                          var items = new JsonArray();
                          page.items().forEach(w -> items.add(view(w)));
                          return new JsonObject()
                              .put("items", items)
                              .put(
                                  "nextCursor",
                                  page.nextCursor() == null ? null : ids.encode(page.nextCursor()));
                        })));
  }

  private void callback(RoutingContext ctx) {
    Buffer raw = ctx.body().buffer();
    String body = raw == null ? "" : raw.toString();
    String signature = ctx.request().getHeader(callbacks.signatureHeader());
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> callbacks.receive(body, signature))
        .onComplete(
            result -> {
              if (result.succeeded() && !result.result()) {
                ctx.fail(
                    new ApiError(401, "UNAUTHENTICATED", "the signature is not the gateway's"));
                return;
              }
              HttpApi.answer(ctx, result.map(applied -> new JsonObject().put("code", "SUCCESS")));
            });
  }

  // ------------------------------------------------------------------------------- rendering

  /** The 202 answer, exactly as the contract gives it; stored and replayed verbatim. */
  private JsonObject accepted(Withdrawal w) {
    return new JsonObject()
        .put("id", ID_PREFIX + ids.encode(w.id()))
        .put("amount", w.amount().fen())
        .put("status", publicStatus(w.status()))
        .put("createdAt", Render.time(w.createdAt()));
  }

  private JsonObject view(Withdrawal w) {
    return accepted(w)
        .put("updatedAt", Render.time(w.updatedAt()))
        .put("gatewayRef", w.gatewayRef())
        .put("reason", w.status() == WithdrawalStatus.FAILED ? w.cause() : null);
  }

  /** What an admin sees of a withdrawal: its view and every transition, oldest first. */
  private JsonObject withHistory(WithdrawalService.Details details) {
    return view(details.withdrawal()).put("transitions", transitions(details.transitions()));
  }

  private static JsonArray transitions(List<Transition> transitions) {
    var json = new JsonArray();
    for (Transition t : transitions) {
      json.add(
          new JsonObject()
              .put("from", t.from() == null ? null : t.from().name())
              .put("to", t.to().name())
              .put("cause", t.cause())
              .put("at", Render.time(t.at())));
    }
    return json;
  }

  static String publicStatus(WithdrawalStatus status) {
    return switch (status) {
      case REQUESTED, SENT, UNKNOWN -> "PENDING";
      case SUCCEEDED -> "SUCCEEDED";
      case FAILED -> "FAILED";
    };
  }

  private long decode(String text) {
    long id =
        text != null && text.startsWith(ID_PREFIX)
            ? ids.decode(text.substring(ID_PREFIX.length()))
            : -1;
    if (id < 0) {
      throw ApiError.notFound("no such withdrawal");
    }
    return id;
  }
}

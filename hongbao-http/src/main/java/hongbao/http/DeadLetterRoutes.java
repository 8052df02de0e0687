package hongbao.http;

import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutQueue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The operator's view of the payouts that were given up on, and the remedy once the cause is fixed:
 * send one back to its queue. A retried payout is paid at most once (the ledger's transfer key);
 * one the books still refuse is dead-lettered again. Admin only (under {@code /api/v1/admin/}).
 *
 * <p>A dead letter's {@code id} is opaque to clients: its place in the dead-letter queue, in
 * unpadded base64url so that it travels in JSON and URLs as it is. Besides {@code packetId}, the
 * ledger's number, {@code packet} is the id as every other answer writes one, so that it can be
 * looked up where packets are (a field added rather than {@code packetId} changed: listed fields
 * keep their shape).
 */
public final class DeadLetterRoutes implements HttpApi.Routes, AutoCloseable {

  private static final Base64.Encoder ID = Base64.getUrlEncoder().withoutPadding();

  private final PayoutQueue queue;
  private final PacketIds packetIds;
  private final Blocking blocking = new Blocking();

  public DeadLetterRoutes(PayoutQueue queue, PacketIds packetIds) {
    this.queue = queue;
    this.packetIds = packetIds;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/v1/admin/dead-letters").handler(this::list);
    router.post("/api/v1/admin/dead-letters/retry").handler(this::retry);
  }

  private void list(RoutingContext ctx) {
    int limit = HttpApi.intParam(ctx, "limit", 100, 1, 500);
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> queue.deadLetters(limit))
        .onComplete(
            result ->
                HttpApi.answer(
                    ctx,
                    result.map(
                        dead -> {
                          var items = new JsonArray();
                          dead.forEach(letter -> items.add(json(letter, packetIds)));
                          return new JsonObject().put("items", items);
                        })));
  }

  private void retry(RoutingContext ctx) {
    String id = JsonFields.parse(ctx.body().buffer(), "id").requiredString("id");
    String deadLetterId = decode(id);
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> queue.redrive(deadLetterId))
        .onComplete(
            result -> {
              if (result.succeeded() && !result.result()) {
                ctx.fail(ApiError.notFound("no such dead letter (retried already?)"));
                return;
              }
              HttpApi.answer(
                  ctx, result.map(moved -> new JsonObject().put("id", id).put("retried", true)));
            });
  }

  private static JsonObject json(DeadLetter letter, PacketIds packetIds) {
    return new JsonObject()
        .put("id", ID.encodeToString(letter.id().getBytes(StandardCharsets.UTF_8)))
        .put("packetId", letter.task().packetId())
        .put("packet", packet(letter, packetIds))
        .put("userId", letter.task().userId())
        .put("amount", letter.task().amount().fen())
        .put("grabbedAt", Render.time(letter.task().grabbedAt()))
        .put("reason", letter.reason());
  }

  /**
   * A dead letter may be a task no packet could own (that is why it is here): a packet number that
   * no id could be has none (null), rather than failing the whole list.
   */
  private static String packet(DeadLetter letter, PacketIds packetIds) {
    long id = letter.task().packetId();
    return id >= 0 ? packetIds.encode(id) : null;
  }

  /** The queue's own name of a dead letter; an id that is not one is a bad request. */
  private static String decode(String id) {
    if (id.isEmpty() || id.length() > 512) {
      throw ApiError.invalid("id must be a dead letter's id");
    }
    try {
      return new String(Base64.getUrlDecoder().decode(id), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException notBase64) {
      throw ApiError.invalid("id must be a dead letter's id");
    }
  }

  @Override
  public void close() {
    blocking.close();
  }
}

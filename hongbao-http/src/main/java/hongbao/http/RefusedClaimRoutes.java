package hongbao.http;

import hongbao.core.grab.RefusedClaims;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.OpenRefusedClaim;
import hongbao.core.packet.RefusedClaim;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The operator's view of the grab receipts the books refused to pay, and the answer to one:
 * compensate it from the platform's account, or dismiss it. Either way it is reported no more.
 * Admin only (under {@code /api/v1/admin/}). As with dead letters, {@code packetId} is the ledger's
 * number and {@code packet} the id every other answer writes.
 */
public final class RefusedClaimRoutes implements HttpApi.Routes, AutoCloseable {

  private final RefusedClaims claims;
  private final PacketIds packetIds;
  private final Blocking blocking = new Blocking();

  public RefusedClaimRoutes(RefusedClaims claims, PacketIds packetIds) {
    this.claims = claims;
    this.packetIds = packetIds;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/v1/admin/refused-claims").handler(this::list);
    router.post("/api/v1/admin/refused-claims/:id/resolve").handler(this::resolve);
  }

  private void list(RoutingContext ctx) {
    int limit = HttpApi.intParam(ctx, "limit", 100, 1, 500);
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> claims.open(limit))
        .onComplete(
            result ->
                HttpApi.answer(
                    ctx,
                    result.map(
                        open -> {
                          var items = new JsonArray();
                          open.forEach(claim -> items.add(json(claim)));
                          return new JsonObject().put("items", items);
                        })));
  }

  private void resolve(RoutingContext ctx) {
    long id = decode(ctx.pathParam("id"));
    JsonFields body = JsonFields.parse(ctx.body().buffer(), "decision", "note");
    ClaimDecision decision = body.requiredEnum("decision", ClaimDecision.class);
    String note = body.requiredString("note");
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> claims.resolve(id, decision, note))
        .onComplete(
            result ->
                HttpApi.answer(
                    ctx,
                    result.map(
                        found ->
                            json(
                                found.orElseThrow(
                                    () -> ApiError.notFound("no such refused claim"))))));
  }

  private JsonObject json(OpenRefusedClaim open) {
    RefusedClaim claim = open.claim();
    return new JsonObject()
        .put("id", open.id())
        .put("packetId", claim.packetId())
        .put("packet", packetIds.encode(claim.packetId()))
        .put("userId", claim.userId())
        .put("amount", claim.amount().fen())
        .put("reason", claim.reason())
        .put("at", Render.time(claim.at()));
  }

  private JsonObject json(ClaimResolution resolution) {
    return new JsonObject()
        .put("id", resolution.claimId())
        .put("packetId", resolution.packetId())
        .put("packet", packetIds.encode(resolution.packetId()))
        .put("userId", resolution.userId())
        .put("decision", resolution.decision().name())
        .put("paid", resolution.paid().fen())
        .put("note", resolution.note())
        .put("at", Render.time(resolution.at()));
  }

  /** A refused claim's number; anything else names no refused claim. */
  private static long decode(String text) {
    try {
      long id = Long.parseLong(text);
      if (id > 0) {
        return id;
      }
    } catch (NumberFormatException notANumber) {
      // answered below
    }
    throw ApiError.notFound("no such refused claim");
  }

  @Override
  public void close() {
    blocking.close();
  }
}

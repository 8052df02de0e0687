package hongbao.http;

import hongbao.core.details.Boxes;
import hongbao.core.ledger.WalletEntry;
import hongbao.core.packet.GrabView;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketDetails;
import hongbao.core.password.PasswordMatch;
import hongbao.core.wallet.WalletService.WalletView;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.LongFunction;

/** The API's JSON shapes, field for field as the contract gives them. */
final class Render {

  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final PacketIds ids;
  private final LongFunction<String> activityIds;

  Render(PacketIds ids, LongFunction<String> activityIds) {
    this.ids = ids;
    this.activityIds = activityIds;
  }

  static String time(Instant at) {
    return at == null ? null : ISO_MILLIS.format(at);
  }

  static JsonObject error(String code, String message) {
    return new JsonObject()
        .put("error", new JsonObject().put("code", code).put("message", message));
  }

  JsonObject sent(Packet packet) {
    return new JsonObject()
        .put("id", ids.encode(packet.id()))
        .put("amount", packet.amount().fen())
        .put("count", packet.count())
        .put("type", packet.type().name())
        .put("expiresAt", time(packet.expiresAt()));
  }

  JsonObject details(PacketDetails details, boolean withGrabs) {
    Packet packet = details.packet();
    var json =
        new JsonObject()
            .put("id", ids.encode(packet.id()))
            .put("sender", packet.sender())
            .put("type", packet.type().name())
            .put("greeting", packet.greeting())
            .put("amount", packet.amount().fen())
            .put("count", packet.count())
            .put("grabbedCount", details.grabbedCount())
            .put("grabbedAmount", details.grabbedAmount().fen())
            .put("status", details.status().name())
            .put("createdAt", time(packet.createdAt()))
            .put("expiresAt", time(packet.expiresAt()))
            .put("emptiedAt", time(details.emptiedAt()))
            .put("timeToEmptyMillis", details.timeToEmptyMillis())
            .put("refundedAmount", details.refundedAmount().fen())
            .put("hasPassword", packet.hasPassword())
            .put("passwordMatch", packet.hasPassword() ? passwordMatch(packet) : null)
            .put(
                "activityId",
                packet.activityId() == 0 ? null : activityIds.apply(packet.activityId()))
            .put("bestLuck", bestLuck(details.bestLuck()));
    if (withGrabs) {
      var grabs = new JsonArray();
      for (GrabView grab : details.grabs()) {
        grabs.add(grab(grab));
      }
      json.put("grabs", grabs);
    }
    return json;
  }

  /** A box's item: the details without grabs, and the caller's own grab ({@code myShare}). */
  JsonObject boxItem(Boxes.Item item) {
    return details(item.details(), false)
        .put("myShare", item.myShare() == null ? null : grab(item.myShare()));
  }

  private static JsonObject grab(GrabView grab) {
    return new JsonObject()
        .put("userId", grab.userId())
        .put("amount", grab.amount().fen())
        .put("at", time(grab.at()))
        .put("paid", grab.paid());
  }

  /** As the send request names it: a string, or the fuzzy percentage as an integer. */
  private static Object passwordMatch(Packet packet) {
    return packet.passwordMatch() instanceof PasswordMatch.Fuzzy fuzzy
        ? (Object) fuzzy.percent()
        : packet.passwordMatch().code();
  }

  private static JsonObject bestLuck(GrabView best) {
    return best == null
        ? null
        : new JsonObject().put("userId", best.userId()).put("amount", best.amount().fen());
  }

  JsonObject wallet(WalletView view) {
    var entries = new JsonArray();
    for (WalletEntry entry : view.wallet().entries()) {
      entries.add(
          new JsonObject()
              .put("kind", entry.kind().name())
              .put("amount", entry.amount().fen())
              .put("packetId", entry.packetId() == null ? null : ids.encode(entry.packetId()))
              .put("at", time(entry.at())));
    }
    return new JsonObject()
        .put("userId", view.wallet().userId())
        .put("balance", view.wallet().balance().fen())
        .put("pendingAmount", view.pendingAmount().fen())
        .put("entries", entries);
  }
}

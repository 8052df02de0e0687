package hongbao.http;

import hongbao.core.grab.ClaimOutcome;
import hongbao.core.grab.GrabOutcome;
import io.vertx.core.json.JsonObject;

/** The one table from a grab outcome to its JSON answer. */
final class Outcomes {

  private Outcomes() {}

  static JsonObject toJson(GrabOutcome outcome) {
    return switch (outcome) {
      case GrabOutcome.Grabbed g ->
          new JsonObject()
              .put("outcome", "GRABBED")
              .put("amount", g.amount().fen())
              .put("receipt", g.receipt());
      case GrabOutcome.AlreadyGrabbed g ->
          new JsonObject().put("outcome", "ALREADY_GRABBED").put("amount", g.amount().fen());
      case GrabOutcome.SoldOut s -> new JsonObject().put("outcome", "SOLD_OUT");
      case GrabOutcome.Expired e -> new JsonObject().put("outcome", "EXPIRED");
      case GrabOutcome.NotEligible n -> new JsonObject().put("outcome", "NOT_ELIGIBLE");
      case GrabOutcome.WrongPassword w -> new JsonObject().put("outcome", "WRONG_PASSWORD");
      case GrabOutcome.LimitReached l -> new JsonObject().put("outcome", "LIMIT_REACHED");
      case GrabOutcome.NotFound n -> throw ApiError.notFound("no such packet");
      case GrabOutcome.Held h ->
          throw new ApiError(
              503, "UNAVAILABLE", "this packet is held for recovery; an operator has been told");
    };
  }

  static JsonObject toJson(ClaimOutcome outcome) {
    return switch (outcome) {
      case ClaimOutcome.Paid p ->
          new JsonObject().put("outcome", "PAID").put("amount", p.amount().fen());
      case ClaimOutcome.Recorded r ->
          new JsonObject().put("outcome", "RECORDED").put("amount", r.amount().fen());
      case ClaimOutcome.Recovered r ->
          new JsonObject().put("outcome", "RECOVERED").put("amount", r.amount().fen());
      case ClaimOutcome.Refused r ->
          new JsonObject()
              .put("outcome", "REFUSED")
              .put("amount", r.amount().fen())
              .put("reason", r.reason());
      case ClaimOutcome.Invalid i ->
          throw ApiError.invalid("the receipt is not one of this user's for this packet");
    };
  }

  /** The metric tag of an outcome type. */
  static String name(Class<?> outcome) {
    return outcome
        .getSimpleName()
        .replaceAll("([a-z])([A-Z])", "$1_$2")
        .toUpperCase(java.util.Locale.ROOT);
  }
}

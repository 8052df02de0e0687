package hongbao.http;

import hongbao.core.Invariants;
import hongbao.core.grab.ClaimOutcome;
import hongbao.core.grab.GrabOutcome;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/** The one table from a grab (or claim) outcome to its JSON answer. */
final class Outcomes {

  private Outcomes() {}

  /**
   * The grab's answer as bytes, written straight from this table: a grab is the hot path, and a
   * JsonObject and its encoder cost more than the grab's own work in Redis. The fixed answers are
   * encoded once; the others carry only numbers and a receipt of URL-safe base64, which JSON needs
   * no escaping for (checked, as a receipt format could change).
   */
  static Buffer answer(GrabOutcome outcome) {
    return switch (outcome) {
      case GrabOutcome.Grabbed g -> grabbed(g.amount().fen(), g.receipt());
      case GrabOutcome.AlreadyGrabbed g ->
          Buffer.buffer("{\"outcome\":\"ALREADY_GRABBED\",\"amount\":" + g.amount().fen() + "}");
      case GrabOutcome.SoldOut s -> Buffer.buffer(SOLD_OUT);
      case GrabOutcome.Expired e -> Buffer.buffer(EXPIRED);
      case GrabOutcome.NotEligible n -> Buffer.buffer(NOT_ELIGIBLE);
      case GrabOutcome.WrongPassword w -> Buffer.buffer(WRONG_PASSWORD);
      case GrabOutcome.LimitReached l -> Buffer.buffer(LIMIT_REACHED);
      case GrabOutcome.NotFound n -> throw ApiError.notFound("no such packet");
      case GrabOutcome.Held h ->
          throw new ApiError(
              503, "UNAVAILABLE", "this packet is held for recovery; an operator has been told");
    };
  }

  private static final byte[] SOLD_OUT = fixed("SOLD_OUT");
  private static final byte[] EXPIRED = fixed("EXPIRED");
  private static final byte[] NOT_ELIGIBLE = fixed("NOT_ELIGIBLE");
  private static final byte[] WRONG_PASSWORD = fixed("WRONG_PASSWORD");
  private static final byte[] LIMIT_REACHED = fixed("LIMIT_REACHED");

  private static byte[] fixed(String outcome) {
    return ("{\"outcome\":\"" + outcome + "\"}").getBytes(StandardCharsets.US_ASCII);
  }

  private static Buffer grabbed(long fen, String receipt) {
    Invariants.check(isPlain(receipt), "a receipt JSON would have to escape: %s", receipt);
    return Buffer.buffer(
        "{\"outcome\":\"GRABBED\",\"amount\":" + fen + ",\"receipt\":\"" + receipt + "\"}");
  }

  /** URL-safe base64 (and the empty string of a store without receipts). */
  private static boolean isPlain(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean plain =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!plain) {
        return false;
      }
    }
    return true;
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

package hongbao.core.packet;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.password.PasswordKey;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;

/** The rules a send request must pass before any money moves, in the contract's order. */
public final class SendRules {

  /** User ids are opaque strings of 1–64 characters from this set. */
  public static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9_.@-]{1,64}");

  /**
   * Whether {@code text} is a user id by {@link #USER_ID}, checked without the regex engine: every
   * new token's subject passes here on the grab path, where the matcher cost more than the check.
   */
  public static boolean isUserId(String text) {
    if (text == null || text.isEmpty() || text.length() > 64) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean allowed =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '.'
              || c == '@'
              || c == '-';
      if (!allowed) {
        return false;
      }
    }
    return true;
  }

  private final PacketLimits limits;

  public SendRules(PacketLimits limits) {
    this.limits = limits;
  }

  public PacketLimits limits() {
    return limits;
  }

  /** Returns the expiry in seconds to use, or throws the first rule broken. */
  public long validate(SendRequest request) {
    checkShape(request);
    if (request.count() < 1 || request.count() > limits.maxCount()) {
      throw reject(
          Rejection.INVALID_COUNT, "count must be between 1 and %d".formatted(limits.maxCount()));
    }
    if (request.type() == PacketType.EXCLUSIVE && request.count() != request.recipients().size()) {
      throw reject(Rejection.INVALID_COUNT, "count must equal the number of recipients");
    }
    if (request.amount() < 1 || request.amount() > limits.maxAmountFen()) {
      throw reject(
          Rejection.INVALID_AMOUNT,
          "amount must be between 1 and %d fen".formatted(limits.maxAmountFen()));
    }
    if (request.amount() < request.count()) {
      throw reject(Rejection.INVALID_AMOUNT, "amount must be at least 1 fen per share");
    }
    if (request.type() == PacketType.FIXED && request.amount() % request.count() != 0) {
      throw reject(Rejection.INVALID_AMOUNT, "a FIXED amount must divide by count");
    }
    long expiry =
        request.expiresInSeconds() == null
            ? limits.defaultExpirySeconds()
            : request.expiresInSeconds();
    if (expiry < 1 || expiry > limits.maxExpirySeconds()) {
      throw reject(
          Rejection.INVALID_EXPIRY,
          "expiresInSeconds must be between 1 and %d".formatted(limits.maxExpirySeconds()));
    }
    return expiry;
  }

  private void checkShape(SendRequest request) {
    if (request.type() == null) {
      throw reject(Rejection.INVALID_REQUEST, "type is required");
    }
    if (request.greeting() != null
        && request.greeting().codePointCount(0, request.greeting().length())
            > limits.maxGreetingLength()) {
      throw reject(
          Rejection.INVALID_REQUEST,
          "greeting must be at most %d characters".formatted(limits.maxGreetingLength()));
    }
    if (request.password() != null) {
      int length = request.password().codePointCount(0, request.password().length());
      if (length > limits.maxPasswordLength() || PasswordKey.of(request.password()).isEmpty()) {
        throw reject(
            Rejection.INVALID_REQUEST,
            "password must have 1 to %d characters beyond spaces and punctuation"
                .formatted(limits.maxPasswordLength()));
      }
    }
    if (request.passwordMatch() != null && request.password() == null) {
      throw reject(Rejection.INVALID_REQUEST, "passwordMatch needs a password");
    }
    List<String> recipients = request.recipients();
    if (request.type() != PacketType.EXCLUSIVE) {
      if (recipients != null) {
        throw reject(Rejection.INVALID_REQUEST, "recipients are only for EXCLUSIVE packets");
      }
      return;
    }
    if (recipients == null || recipients.isEmpty()) {
      throw reject(Rejection.INVALID_REQUEST, "an EXCLUSIVE packet needs recipients");
    }
    if (recipients.size() > limits.maxCount()) {
      throw reject(Rejection.INVALID_COUNT, "too many recipients");
    }
    var seen = new HashSet<String>();
    for (String recipient : recipients) {
      if (!isUserId(recipient)) {
        throw reject(Rejection.INVALID_REQUEST, "recipients must be valid user ids");
      }
      if (!seen.add(recipient)) {
        throw reject(Rejection.INVALID_REQUEST, "duplicate recipient " + recipient);
      }
    }
  }

  private static RejectedException reject(Rejection rejection, String message) {
    return new RejectedException(rejection, message);
  }
}

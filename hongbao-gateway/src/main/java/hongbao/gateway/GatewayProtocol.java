package hongbao.gateway;

import hongbao.core.money.Amount;
import io.vertx.core.json.JsonObject;
import java.util.regex.Pattern;

/**
 * The wire protocol of the payment gateway, modelled on the transfer APIs of real providers, in one
 * place for the adapter and the simulator. JSON in and out, amounts in integer fen, every request
 * and every callback signed, and so is every 200 answer to a request (see {@link
 * GatewaySignature}): an answer that does not carry the gateway's signature is not the gateway's,
 * and the adapter reads it as no answer.
 *
 * <pre>
 * POST /v1/transfers           {"outTradeNo","userId","amount","notifyUrl"?}
 *   -> {"result":"SUCCESS","gatewayRef","amount"} | {"result":"FAIL","reason","retryable"}
 *    | {"result":"SYSTEM_ERROR","message"}         | (no answer: a timeout)
 * GET  /v1/transfers/{no}
 *   -> {"result":"SUCCESS","gatewayRef","amount","at"} | {"result":"FAIL","reason"}
 *    | {"result":"PROCESSING"} | {"result":"NOT_FOUND"} | {"result":"SYSTEM_ERROR","message"}
 * GET  /v1/statements/{yyyy-MM-dd}  -> text/csv: out_trade_no,amount,status,time (UTC day)
 * POST {notifyUrl}             {"outTradeNo","result":"SUCCESS|FAIL","gatewayRef","amount","reason"}
 * </pre>
 *
 * The out-trade-no is the gateway's idempotency key: a transfer under a number it already settled
 * answers that settlement again and pays nothing.
 */
public final class GatewayProtocol {

  private GatewayProtocol() {}

  public static final String TRANSFERS = "/v1/transfers";
  public static final String STATEMENTS = "/v1/statements";
  public static final String SIGNATURE_HEADER = "X-Gateway-Signature";

  public static final String SUCCESS = "SUCCESS";
  public static final String FAIL = "FAIL";
  public static final String SYSTEM_ERROR = "SYSTEM_ERROR";
  public static final String PROCESSING = "PROCESSING";
  public static final String NOT_FOUND = "NOT_FOUND";

  /** Out-trade-nos as providers accept them: letters and digits, at most 32. */
  public static final Pattern OUT_TRADE_NO = Pattern.compile("[A-Za-z0-9]{1,32}");

  public static final String STATEMENT_HEADER = "out_trade_no,amount,status,time";

  /** The longest text of the gateway kept (a reference, a FAIL's reason, an error's message). */
  static final int TEXT_MAX = 200;

  /**
   * The gateway's reference of a SUCCESS (answer or callback), null when it names none, as free
   * text is kept: only recorded and shown, never matched (the statement matches by out-trade-no),
   * so a reference PostgreSQL could not store is no reason to leave a paid withdrawal unsettled.
   */
  static String ref(JsonObject success) {
    String ref = success.getString("gatewayRef");
    return ref == null ? null : text(ref);
  }

  /**
   * The gateway's free text as a withdrawal keeps it, {@code absent} when the field is missing or
   * null: control characters (NUL, which PostgreSQL's text refuses, among them: the settling move
   * failed on every check) become '?', and it is cut at {@value #TEXT_MAX} characters.
   */
  static String text(JsonObject answer, String field, String absent) {
    String text = answer.getString(field);
    return text == null ? absent : text(text);
  }

  private static String text(String text) {
    var kept = new StringBuilder(Math.min(text.length(), TEXT_MAX + 1));
    text.codePoints()
        .limit(TEXT_MAX)
        .forEach(c -> kept.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return kept.length() < text.length() ? kept.append('…').toString() : kept.toString();
  }

  /**
   * What a SUCCESS (answer or callback) says was paid, {@code otherwise} when it names no amount
   * (null: an amount is required). A payment of zero or less is the gateway contradicting itself:
   * refused, never settled on.
   *
   * @throws IllegalArgumentException for a payment of zero or less, an amount that is not a whole
   *     number of fen, or a required amount missing
   */
  static Amount paid(JsonObject success, Long otherwise) {
    if (!success.containsKey("amount")) {
      if (otherwise == null) {
        throw new IllegalArgumentException("a SUCCESS that names no amount");
      }
      return Amount.fen(otherwise);
    }
    // Whole fen only: a 1.5 read as a long would be 1, money rounded away.
    Object amount = success.getValue("amount");
    if (!(amount instanceof Integer || amount instanceof Long)) {
      throw new IllegalArgumentException("an amount that is not a whole number of fen: " + amount);
    }
    long fen = ((Number) amount).longValue();
    if (fen <= 0) {
      throw new IllegalArgumentException("a payment of " + fen + " fen");
    }
    return Amount.fen(fen);
  }
}

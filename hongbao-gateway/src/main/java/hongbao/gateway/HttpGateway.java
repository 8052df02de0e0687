package hongbao.gateway;

import hongbao.core.money.Amount;
import hongbao.core.withdrawal.Gateway;
import hongbao.core.withdrawal.GatewayStatements;
import hongbao.core.withdrawal.QueryAnswer;
import hongbao.core.withdrawal.StatementLine;
import hongbao.core.withdrawal.StatementUnavailableException;
import hongbao.core.withdrawal.TransferAnswer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The payment gateway over HTTP ({@link GatewayProtocol}). Calls block the calling thread (a
 * virtual thread, a sender or a janitor; never an event loop) for at most {@code timeout}. Every
 * transport fault becomes an answer that says "unknown": a transfer that timed out may have been
 * paid, so it is never reported as failed. So does an answer that does not carry the gateway's
 * signature: whoever sent it (a proxy, a misrouted address, an attacker on the path) is not the
 * gateway, and acting on its SUCCESS would mark unpaid money paid, on its FAIL give back money the
 * gateway may have paid.
 */
public final class HttpGateway implements Gateway, GatewayStatements, AutoCloseable {

  /** Statements are read by the reconciler, not on a hot path: it may wait longer for them. */
  private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(30);

  /** How long, in seconds, an idle connection to the gateway is kept for the next request. */
  private static final int KEEP_ALIVE_SECONDS = 10;

  static final String NOT_SIGNED = "an answer without the gateway's signature";

  /** Connections to the gateway: as many as requests may be waiting on it at once. */
  private static final int POOL_SIZE = 64;

  private final WebClient client;
  private final String base;
  private final GatewaySignature signature;
  private final Duration timeout;
  private final Supplier<String> notifyUrl;

  /**
   * @param notifyUrl where the gateway should send its callbacks; supplies null for none
   */
  public HttpGateway(
      Vertx vertx,
      URI base,
      GatewaySignature signature,
      Duration timeout,
      Supplier<String> notifyUrl) {
    this.client =
        WebClient.create(
            vertx,
            new WebClientOptions()
                .setKeepAlive(true)
                // Retire an idle connection before a gateway's own idle timeout can close it
                // under a transfer: such a transfer has no answer and waits for the polling to
                // learn its fate. Ten seconds is under the idle timeouts common in front of
                // payment APIs (the client's default, 60 s, is over most of them).
                .setKeepAliveTimeout(KEEP_ALIVE_SECONDS)
                .setConnectTimeout((int) timeout.toMillis()),
            new PoolOptions().setHttp1MaxSize(POOL_SIZE));
    this.base = base.toString().replaceAll("/+$", "");
    this.signature = signature;
    this.timeout = timeout;
    this.notifyUrl = notifyUrl;
  }

  @Override
  public TransferAnswer transfer(String outTradeNo, String userId, Amount amount) {
    JsonObject request =
        new JsonObject()
            .put("outTradeNo", outTradeNo)
            .put("userId", userId)
            .put("amount", amount.fen());
    String notify = notifyUrl.get();
    if (notify != null) {
      request.put("notifyUrl", notify);
    }
    HttpResponse<Buffer> response;
    try {
      response = call(HttpMethod.POST, GatewayProtocol.TRANSFERS, request.encode(), timeout);
    } catch (TimeoutException | ExecutionException e) {
      return new TransferAnswer.NoAnswer(describe(e));
    }
    if (unsigned(response, HttpMethod.POST, GatewayProtocol.TRANSFERS)) {
      return new TransferAnswer.NoAnswer(NOT_SIGNED);
    }
    JsonObject answer = json(response);
    if (answer == null) {
      return new TransferAnswer.SystemError("HTTP " + response.statusCode());
    }
    try {
      return switch (answer.getString("result", "")) {
        case GatewayProtocol.SUCCESS ->
            new TransferAnswer.Success(
                GatewayProtocol.ref(answer), GatewayProtocol.paid(answer, amount.fen()));
        case GatewayProtocol.FAIL ->
            new TransferAnswer.Fail(
                GatewayProtocol.text(answer, "reason", "FAIL"), retryable(answer));
        case GatewayProtocol.SYSTEM_ERROR ->
            new TransferAnswer.SystemError(GatewayProtocol.text(answer, "message", "SYSTEM_ERROR"));
        default ->
            new TransferAnswer.SystemError("unexpected answer " + abbreviate(answer.encode()));
      };
    } catch (ClassCastException
        | IllegalArgumentException
        | NullPointerException
        | ArithmeticException unreadable) {
      return new TransferAnswer.SystemError(unreadable(answer));
    }
  }

  /**
   * Whether a FAIL leaves the number open. A FAIL that does not say is read as no answer: taken for
   * a final refusal, it would return the money while an earlier request under the same number (one
   * that timed out on its way) may still be paid.
   */
  private static boolean retryable(JsonObject fail) {
    Boolean retryable = fail.getBoolean("retryable");
    if (retryable == null) {
      throw new IllegalArgumentException("a FAIL that does not say whether it is retryable");
    }
    return retryable;
  }

  @Override
  public QueryAnswer query(String outTradeNo) {
    String path = GatewayProtocol.TRANSFERS + "/" + outTradeNo;
    HttpResponse<Buffer> response;
    try {
      response = call(HttpMethod.GET, path, "", timeout);
    } catch (TimeoutException | ExecutionException e) {
      return new QueryAnswer.NoAnswer(describe(e));
    }
    if (unsigned(response, HttpMethod.GET, path)) {
      return new QueryAnswer.NoAnswer(NOT_SIGNED);
    }
    JsonObject answer = json(response);
    if (answer == null) {
      return new QueryAnswer.NoAnswer("HTTP " + response.statusCode());
    }
    try {
      return switch (answer.getString("result", "")) {
        case GatewayProtocol.SUCCESS ->
            new QueryAnswer.Success(
                GatewayProtocol.ref(answer), GatewayProtocol.paid(answer, null));
        case GatewayProtocol.FAIL ->
            new QueryAnswer.Fail(GatewayProtocol.text(answer, "reason", "FAIL"));
        case GatewayProtocol.PROCESSING -> new QueryAnswer.Processing();
        case GatewayProtocol.NOT_FOUND -> new QueryAnswer.NotFound();
        default -> new QueryAnswer.NoAnswer("unexpected answer " + abbreviate(answer.encode()));
      };
    } catch (ClassCastException
        | IllegalArgumentException
        | NullPointerException
        | ArithmeticException unreadable) {
      return new QueryAnswer.NoAnswer(unreadable(answer));
    }
  }

  /**
   * An answer with a field of the wrong type ({@code "amount": "5000"}), null ({@code "result":
   * null}, which Vert.x reads as null, not as the default) or out of range ({@code "amount": 1e30})
   * says nothing we can act on: read as no answer, so the withdrawal is asked about again, rather
   * than as an exception that would stop its janitor's whole batch, round after round.
   */
  private static String unreadable(JsonObject answer) {
    return "unreadable answer " + abbreviate(answer.encode());
  }

  @Override
  public List<StatementLine> statement(LocalDate day) {
    String path = GatewayProtocol.STATEMENTS + "/" + day;
    HttpResponse<Buffer> response;
    try {
      response = call(HttpMethod.GET, path, "", STATEMENT_TIMEOUT);
    } catch (TimeoutException | ExecutionException e) {
      throw new StatementUnavailableException("statement of " + day + ": " + describe(e), e);
    }
    if (response.statusCode() != 200) {
      throw new StatementUnavailableException(
          "statement of " + day + ": HTTP " + response.statusCode(), null);
    }
    if (unsigned(response, HttpMethod.GET, path)) {
      throw new StatementUnavailableException("statement of " + day + ": " + NOT_SIGNED, null);
    }
    return parseStatement(response.bodyAsString());
  }

  /** Parses the CSV of a statement: a header line, then one line per settled out-trade-no. */
  static List<StatementLine> parseStatement(String csv) {
    List<StatementLine> lines = new ArrayList<>();
    String[] rows = csv.split("\n");
    if (rows.length == 0 || !rows[0].trim().equals(GatewayProtocol.STATEMENT_HEADER)) {
      throw new StatementUnavailableException("not a statement: " + abbreviate(csv), null);
    }
    for (int i = 1; i < rows.length; i++) {
      String row = rows[i].trim();
      if (row.isEmpty()) {
        continue;
      }
      String[] cells = row.split(",", -1);
      try {
        lines.add(
            new StatementLine(
                cells[0],
                Amount.fen(Long.parseLong(cells[1])),
                GatewayProtocol.SUCCESS.equals(cells[2]),
                Instant.parse(cells[3])));
      } catch (ArrayIndexOutOfBoundsException | NumberFormatException | DateTimeParseException e) {
        throw new StatementUnavailableException("bad statement line: " + row, e);
      }
    }
    return lines;
  }

  /**
   * The longest one call with this timeout may hold its caller: the timeout, and a second more for
   * a client that does not time out (see {@code call}).
   */
  public static Duration longestCall(Duration timeout) {
    return timeout.plusSeconds(1);
  }

  private HttpResponse<Buffer> call(HttpMethod method, String path, String body, Duration limit)
      throws TimeoutException, ExecutionException {
    Future<HttpResponse<Buffer>> sent =
        client
            .requestAbs(method, base + path)
            .timeout(limit.toMillis())
            .putHeader("content-type", "application/json")
            .putHeader(
                GatewayProtocol.SIGNATURE_HEADER,
                signature.sign(GatewaySignature.request(method.name(), path), body))
            .sendBuffer(Buffer.buffer(body));
    try {
      // The client's own timeout fires first; this one only bounds a wedged client.
      return sent.toCompletionStage()
          .toCompletableFuture()
          .get(longestCall(limit).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExecutionException("interrupted while waiting for the gateway", e);
    }
  }

  /**
   * A 200 answer without the gateway's signature for this request. Other statuses are never acted
   * on, signed or not.
   */
  private boolean unsigned(HttpResponse<Buffer> response, HttpMethod method, String path) {
    if (response.statusCode() != 200) {
      return false;
    }
    Buffer body = response.body();
    return !signature.verify(
        GatewaySignature.answer(method.name(), path),
        body == null ? "" : body.toString(),
        response.getHeader(GatewayProtocol.SIGNATURE_HEADER));
  }

  private static JsonObject json(HttpResponse<Buffer> response) {
    if (response.statusCode() != 200) {
      return null;
    }
    try {
      return response.bodyAsJsonObject();
    } catch (DecodeException e) {
      return null;
    }
  }

  private static String describe(Exception e) {
    Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    return cause.getClass().getSimpleName() + ": " + cause.getMessage();
  }

  private static String abbreviate(String text) {
    return text.length() <= 80 ? text : text.substring(0, 80) + "…";
  }

  @Override
  public void close() {
    client.close();
  }
}

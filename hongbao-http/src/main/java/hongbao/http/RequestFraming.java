package hongbao.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses, before the router sees it, an HTTP/1 request whose head the server cannot frame or
 * address safely, with a 400 and a closed connection:
 *
 * <ul>
 *   <li>a {@code Transfer-Encoding} other than {@code chunked} alone ({@code identity}, {@code
 *       gzip}, {@code gzip, chunked}, an empty value), or any on an HTTP/1.0 request: where none of
 *       the codings is {@code chunked} and no {@code Content-Length} is given, Netty takes the
 *       request to have no body and reads its body as the next request, so a request hidden in a
 *       body ran, money moving (request smuggling; RFC 9112 section 6.3 asks for a 400 and a close
 *       when {@code chunked} is not the last coding, section 6.1 for a close after any coding on
 *       HTTP/1.0, and a coding this server does not apply is refused the same way);
 *   <li>an HTTP/1.1 request without a {@code Host} header (RFC 9112 section 3.2): Vert.x refuses to
 *       route it, which reached the client as a 500 and the log as a bug.
 * </ul>
 *
 * <p>A request pipelined behind a refused one is not handled: Vert.x passes it on as soon as the
 * answer is written, before the close, and behind a body of unknown framing that request is the
 * hidden one. Its connection is closed without an answer.
 *
 * <p>Each refusal is logged at INFO and counted by reason ({@code hongbao_http_refused_total}): the
 * router never sees these requests, so the request timer does not count them.
 */
final class RequestFraming implements Handler<HttpServerRequest> {

  private static final Logger LOG = LoggerFactory.getLogger(RequestFraming.class);

  /** Why a request is refused; the reason labels the counter. */
  enum Refusal {
    TRANSFER_ENCODING_ON_HTTP_1_0(
        "transfer-encoding",
        "Transfer-Encoding on an HTTP/1.0 request: the body's length cannot be known"),
    TRANSFER_ENCODING(
        "transfer-encoding",
        "Transfer-Encoding other than chunked alone: the body's length cannot be known"),
    NO_HOST("host", "an HTTP/1.1 request needs a Host header"),
    /** Not answered: pipelined behind a refused request, it may be one hidden in its body. */
    BEHIND_A_REFUSED_ONE("pipelined", "pipelined behind a refused request");

    final String reason;
    final String message;

    Refusal(String reason, String message) {
      this.reason = reason;
      this.message = message;
    }
  }

  private final Handler<HttpServerRequest> next;
  private final Map<Refusal, Counter> counters = new EnumMap<>(Refusal.class);

  /** Connections with a refused request, from the refusal until they are closed. */
  private final Set<HttpConnection> refused = ConcurrentHashMap.newKeySet();

  RequestFraming(Handler<HttpServerRequest> next, MeterRegistry metrics) {
    this.next = next;
    for (Refusal refusal : Refusal.values()) {
      // Registered up front, so that a dashboard sees a zero rather than no series.
      counters.put(
          refusal,
          Counter.builder("hongbao.http.refused")
              .tag("reason", refusal.reason)
              .description("HTTP/1 requests refused before routing for their framing or Host")
              .register(metrics));
    }
  }

  @Override
  public void handle(HttpServerRequest request) {
    if (!refused.isEmpty() && refused.contains(request.connection())) {
      counters.get(Refusal.BEHIND_A_REFUSED_ONE).increment();
      LOG.info(
          "request not served: {} {} from {}: {}; closing",
          request.method(),
          request.path(),
          request.remoteAddress(),
          Refusal.BEHIND_A_REFUSED_ONE.message);
      request.connection().close();
      return;
    }
    // Every grab passes here: no list is made for the usual request, which has no such header.
    MultiMap headers = request.headers();
    Refusal refusal =
        refusal(
            request.version(),
            headers.contains("transfer-encoding") ? headers.getAll("transfer-encoding") : List.of(),
            headers.contains("host"));
    if (refusal == null) {
      next.handle(request);
      return;
    }
    counters.get(refusal).increment();
    LOG.info(
        "request refused: {} {} from {}: {}; closing the connection",
        request.method(),
        request.path(),
        request.remoteAddress(),
        refusal.message);
    HttpConnection connection = request.connection();
    refused.add(connection);
    // However it closes (our close below, or the client's first), the connection leaves the set.
    connection.closeHandler(closed -> refused.remove(connection));
    request
        .response()
        .setStatusCode(400)
        .putHeader("content-type", Failures.JSON)
        .putHeader("connection", "close")
        .end(Render.error("INVALID_REQUEST", refusal.message).encode())
        .onComplete(ignored -> connection.close());
  }

  /**
   * Why a request of {@code version} with these {@code Transfer-Encoding} values and with or
   * without a {@code Host} header cannot be served; null when it can. HTTP/2 frames its own bodies
   * and names its authority apart.
   */
  static Refusal refusal(HttpVersion version, List<String> transferEncodings, boolean hasHost) {
    if (version == HttpVersion.HTTP_2) {
      return null;
    }
    if (!transferEncodings.isEmpty() && version != HttpVersion.HTTP_1_1) {
      return Refusal.TRANSFER_ENCODING_ON_HTTP_1_0;
    }
    if (!transferEncodings.isEmpty() && !chunkedAlone(transferEncodings)) {
      return Refusal.TRANSFER_ENCODING;
    }
    if (version == HttpVersion.HTTP_1_1 && !hasHost) {
      return Refusal.NO_HOST;
    }
    return null;
  }

  private static boolean chunkedAlone(List<String> values) {
    String joined = String.join(",", values);
    return joined.strip().toLowerCase(Locale.ROOT).equals("chunked");
  }
}

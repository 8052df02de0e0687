package hongbao.http;

import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.util.List;
import java.util.Locale;
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
 */
final class RequestFraming implements Handler<HttpServerRequest> {

  private static final Logger LOG = LoggerFactory.getLogger(RequestFraming.class);

  private final Handler<HttpServerRequest> next;

  /** Connections with a refused request, from the refusal until they are closed. */
  private final Set<HttpConnection> refused = ConcurrentHashMap.newKeySet();

  RequestFraming(Handler<HttpServerRequest> next) {
    this.next = next;
  }

  @Override
  public void handle(HttpServerRequest request) {
    if (!refused.isEmpty() && refused.contains(request.connection())) {
      LOG.info(
          "request not served: {} {} from {}: pipelined behind a refused request; closing",
          request.method(),
          request.path(),
          request.remoteAddress());
      request.connection().close();
      return;
    }
    // Every grab passes here: no list is made for the usual request, which has no such header.
    MultiMap headers = request.headers();
    String problem =
        problem(
            request.version(),
            headers.contains("transfer-encoding") ? headers.getAll("transfer-encoding") : List.of(),
            headers.contains("host"));
    if (problem == null) {
      next.handle(request);
      return;
    }
    LOG.info(
        "request refused: {} {} from {}: {}; closing the connection",
        request.method(),
        request.path(),
        request.remoteAddress(),
        problem);
    HttpConnection connection = request.connection();
    refused.add(connection);
    // However it closes (our close below, or the client's first), the connection leaves the set.
    connection.closeHandler(closed -> refused.remove(connection));
    request
        .response()
        .setStatusCode(400)
        .putHeader("content-type", Failures.JSON)
        .putHeader("connection", "close")
        .end(Render.error("INVALID_REQUEST", problem).encode())
        .onComplete(ignored -> connection.close());
  }

  /**
   * Why a request of {@code version} with these {@code Transfer-Encoding} values and with or
   * without a {@code Host} header cannot be served; null when it can. HTTP/2 frames its own bodies
   * and names its authority apart.
   */
  static String problem(HttpVersion version, List<String> transferEncodings, boolean hasHost) {
    if (version == HttpVersion.HTTP_2) {
      return null;
    }
    if (!transferEncodings.isEmpty() && version != HttpVersion.HTTP_1_1) {
      return "Transfer-Encoding on an HTTP/1.0 request: the body's length cannot be known";
    }
    if (!transferEncodings.isEmpty() && !chunkedAlone(transferEncodings)) {
      return "Transfer-Encoding other than chunked alone: the body's length cannot be known";
    }
    if (version == HttpVersion.HTTP_1_1 && !hasHost) {
      return "an HTTP/1.1 request needs a Host header";
    }
    return null;
  }

  private static boolean chunkedAlone(List<String> values) {
    String joined = String.join(",", values);
    return joined.strip().toLowerCase(Locale.ROOT).equals("chunked");
  }
}

package hongbao.http;

import io.vertx.core.http.HttpServerOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * How the HTTP server guards itself against clients that connect and then stall. Without an idle
 * timeout, 20,200 half-sent requests held 20,200 sockets until the process ran out of file
 * descriptors; the body timeout also catches a client that keeps a connection busy by trickling a
 * body one byte at a time.
 *
 * @param host the address to listen on ({@code 0.0.0.0} for every interface)
 * @param idleTimeout a connection that neither reads nor writes for this long is closed
 * @param bodyTimeout a request whose body has not fully arrived this long after its headers is
 *     answered 408 and its connection closed
 * @param readyTimeout {@code /ready} answers 503 when its check takes longer than this
 * @param http2ClearText whether HTTP/2 without TLS (h2c, by upgrade or prior knowledge) is offered
 */
public record HttpServerSettings(
    String host,
    Duration idleTimeout,
    Duration bodyTimeout,
    Duration readyTimeout,
    boolean http2ClearText) {

  public static final String LOOPBACK = "127.0.0.1";
  public static final String EVERY_INTERFACE = "0.0.0.0";
  public static final Duration IDLE_TIMEOUT_DEFAULT = Duration.ofSeconds(30);
  public static final Duration BODY_TIMEOUT_DEFAULT = Duration.ofSeconds(10);
  public static final Duration READY_TIMEOUT_DEFAULT = Duration.ofSeconds(1);

  public HttpServerSettings {
    Objects.requireNonNull(host, "host");
    positive("idleTimeout", idleTimeout);
    positive("bodyTimeout", bodyTimeout);
    positive("readyTimeout", readyTimeout);
  }

  private static void positive(String name, Duration value) {
    if (value == null || value.toMillis() < 1) {
      throw new IllegalArgumentException(name + " must be at least 1 ms: " + value);
    }
  }

  /**
   * The Vert.x options for one server on {@code port}. The service serves no WebSockets: with their
   * compression extensions off, Vert.x leaves the extension handler out of every connection's
   * pipeline, where it looked at each request for an upgrade. In a JFR recording of the hot bench
   * its compiled code was also thrown away four times after the warm-up (a failed speculation on
   * the class of the message read); without it, none.
   */
  HttpServerOptions options(int port) {
    return new HttpServerOptions()
        .setHost(host)
        .setPort(port)
        .setIdleTimeout(Math.toIntExact(idleTimeout.toMillis()))
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
        .setHttp2ClearTextEnabled(http2ClearText)
        .setPerFrameWebSocketCompressionSupported(false)
        .setPerMessageWebSocketCompressionSupported(false);
  }
}

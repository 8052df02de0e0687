package hongbao.app.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.LogCapture;
import hongbao.app.support.TestService;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The HTTP server against clients that misbehave on purpose: half-sent requests, trickled bodies,
 * oversized heads, HTTP/2 where none was asked for, and a look from outside the loopback address.
 * Timeouts are short here so that the test sees them fire; every loop is bounded in count and time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpHardeningTest {

  private static final Duration IDLE = Duration.ofMillis(1_000);
  private static final Duration BODY = Duration.ofMillis(1_500);

  /** Enough sockets to show that stalled ones do not starve the server; few enough for CI. */
  private static final int HALF_SENT_SOCKETS = 200;

  private static final Duration LOOP_TIME_MAX = Duration.ofSeconds(20);

  private TestService service;
  private Api api;

  @BeforeAll
  void start() {
    service =
        TestService.start(
            Backends.embedded(),
            Map.of(
                "HONGBAO_HTTP_IDLE_TIMEOUT_MILLIS", Long.toString(IDLE.toMillis()),
                "HONGBAO_HTTP_BODY_TIMEOUT_MILLIS", Long.toString(BODY.toMillis())),
            false);
  }

  /**
   * A client of its own for each test: a connection pooled by an earlier test may have idled for
   * about the server's short idle timeout, and reusing it as the server closes it fails the request
   * with a broken pipe that says nothing about the server.
   */
  @BeforeEach
  void client() {
    api = new Api(port());
  }

  @AfterAll
  void stop() {
    service.close();
  }

  private int port() {
    return service.hongbao().port();
  }

  private Socket connect() throws IOException {
    var socket = new Socket();
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port()), 2_000);
    return socket;
  }

  private static void send(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
  }

  /** Everything the server sends until it closes, waiting at most {@code patience} in all. */
  private static Optional<String> readUntilClosed(Socket socket, Duration patience)
      throws IOException {
    long deadline = System.nanoTime() + patience.toNanos();
    var received = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    while (System.nanoTime() < deadline) {
      socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      try {
        int read = in.read(buffer);
        if (read < 0) {
          return Optional.of(received.toString(StandardCharsets.UTF_8));
        }
        received.write(buffer, 0, read);
      } catch (SocketTimeoutException e) {
        break;
      } catch (IOException e) {
        // a reset is a close too
        return Optional.of(received.toString(StandardCharsets.UTF_8));
      }
    }
    return Optional.empty();
  }

  @Test
  void halfSentRequests_doNotStarveTheServer_andAreClosedAtTheIdleTimeout() throws IOException {
    var sockets = new ArrayList<Socket>();
    try (var log = new LogCapture()) {
      long started = System.nanoTime();
      try {
        for (int i = 0;
            i < HALF_SENT_SOCKETS && System.nanoTime() - started < LOOP_TIME_MAX.toNanos();
            i++) {
          Socket socket = connect();
          sockets.add(socket);
          // Half of them stop inside the headers, half inside the body.
          send(
              socket,
              i % 2 == 0
                  ? "POST /api/v1/packets HTTP/1.1\r\nHost: x\r\nContent-Le"
                  : "POST /api/v1/dev/tokens HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\"");
        }
        assertThat(sockets).hasSize(HALF_SENT_SOCKETS);

        Response health = api.get("/health", null);
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().getString("status")).isEqualTo("UP");

        for (Socket socket : sockets) {
          Duration left = LOOP_TIME_MAX.minusNanos(System.nanoTime() - started);
          assertThat(readUntilClosed(socket, left.isNegative() ? Duration.ofMillis(1) : left))
              .as("the server closes a stalled connection")
              .isPresent();
        }
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertThat(tookMillis).isGreaterThanOrEqualTo(IDLE.toMillis());
        // A new connection: the one above has idled about as long as the server lets it.
        assertThat(new Api(port()).get("/health", null).status()).isEqualTo(200);
      } finally {
        for (Socket socket : sockets) {
          socket.close();
        }
      }
      List<ILoggingEvent> events = log.events();
      assertThat(events).noneMatch(e -> e.getThrowableProxy() != null);
      assertThat(events.stream().filter(e -> e.getFormattedMessage().contains("aborted")))
          .hasSizeLessThanOrEqualTo(HALF_SENT_SOCKETS / 2)
          .allMatch(e -> !e.getFormattedMessage().contains("\n"));
    }
  }

  @Test
  void tricklingBody_isAnswered408_atTheBodyTimeout_andClosed() throws IOException {
    try (Socket socket = connect()) {
      send(
          socket,
          "POST /api/v1/dev/tokens HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"userId\":");
      long started = System.nanoTime();
      // One byte every 300 ms keeps the connection from ever being idle for IDLE (1 s).
      socket.setSoTimeout(300);
      var received = new ByteArrayOutputStream();
      for (int i = 0; i < 20 && System.nanoTime() - started < LOOP_TIME_MAX.toNanos(); i++) {
        try {
          send(socket, " ");
        } catch (IOException e) {
          break; // closed by the server
        }
        try {
          byte[] buffer = new byte[4096];
          int read = socket.getInputStream().read(buffer);
          if (read < 0) {
            break;
          }
          received.write(buffer, 0, read);
        } catch (SocketTimeoutException e) {
          // nothing yet: trickle on
        }
      }
      received.writeBytes(
          readUntilClosed(socket, Duration.ofSeconds(5))
              .orElse("")
              .getBytes(StandardCharsets.UTF_8));
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      String answer = received.toString(StandardCharsets.UTF_8);
      assertThat(answer).startsWith("HTTP/1.1 408 ");
      assertThat(errorCode(answer)).isEqualTo("INVALID_REQUEST");
      assertThat(tookMillis).isBetween(BODY.toMillis() - 200, BODY.toMillis() + 3_000);
    }
  }

  @Test
  void oversizedHeadersAndRequestLines_getTheJsonErrorBody() throws IOException {
    for (String request :
        List.of(
            "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(9_000) + "\r\n\r\n",
            "GET /health?" + "a".repeat(5_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n")) {
      try (Socket socket = connect()) {
        send(socket, request);
        String answer = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
        assertThat(answer).matches("(?s)HTTP/1\\.[01] (431|414|400) .*");
        assertThat(answer.toLowerCase()).contains("content-type: application/json");
        assertThat(errorCode(answer)).isEqualTo("INVALID_REQUEST");
      }
    }
    Response response =
        api.call(
            java.net.http.HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port() + "/health"))
                .header("X-Big", "a".repeat(9_000))
                .build());
    assertThat(response.status()).isEqualTo(431);
    assertThat(response.errorCode()).isEqualTo("INVALID_REQUEST");
  }

  /**
   * A {@code %} that starts no escape, in the path or in a query parameter a handler reads, made
   * Vert.x or Netty throw while decoding it: a 500, and for a path an error inside the error
   * handler. It is a bad request, refused before anything decodes it, whatever the route and the
   * caller's token.
   */
  @Test
  void malformedPercentEscapes_areA400_andNoErrorInTheLog() throws IOException {
    String token = api.token("escapes");
    try (var log = new LogCapture()) {
      for (String target :
          List.of(
              "/api/v1/packets/%zz",
              "/api/v1/packets/%",
              "/api/v1/wallet?limit=%zz",
              "/api/v1/wallet?limit=%",
              "/api/v1/packets?box=sent&cursor=%zz",
              "/api/v1/admin/reconciliation?scope=%zz",
              "/api/v1/wallet%zz",
              "/health%zz",
              "/%zz")) {
        try (Socket socket = connect()) {
          send(
              socket,
              "GET "
                  + target
                  + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + token
                  + "\r\nConnection: close\r\n\r\n");
          String answer = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
          assertThat(answer).as(target).matches("(?s)HTTP/1\\.1 400 .*");
          assertThat(errorCode(answer)).isEqualTo("INVALID_REQUEST");
        }
      }
      // A body is never read for such a request: the connection is closed after the answer.
      try (Socket socket = connect()) {
        send(
            socket,
            "POST /api/v1/packets/%zz/grab HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + token
                + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{");
        String answer = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
        assertThat(answer).matches("(?s)HTTP/1\\.1 400 .*");
        assertThat(answer.toLowerCase()).contains("connection: close");
      }
      assertThat(log.events()).noneMatch(e -> e.getThrowableProxy() != null);
    }
    assertThat(api.get("/api/v1/wallet?limit=%41", token).status())
        .as("a well-formed escape is decoded as before: limit=A")
        .isEqualTo(400);
    assertThat(api.get("/api/v1/wallet?limit=%32", token).status()).as("limit=2").isEqualTo(200);
  }

  /**
   * A chunked body whose chunk size is no hexadecimal number fails inside Netty's decoder, which
   * hands the raw {@code NumberFormatException} to the request being read: it was logged at ERROR,
   * with its stack, as a bug. It is the client's malformed request: logged at INFO without a stack
   * (the connection's fault, the request refused, the request aborted), and no packet. Vert.x
   * closes the connection at once, answering nothing; the client sees its request refused by that
   * close.
   */
  @Test
  void aChunkSizeThatIsNoNumber_isTheClientsFault_andNoErrorInTheLog() throws IOException {
    String token = api.token("chunks");
    assertThat(api.topUp("chunks", 1_000).status()).isEqualTo(200);
    String packet =
        JsonObject.of("amount", 100, "count", 2, "type", "LUCKY", "expiresInSeconds", 3_600)
            .encode();
    String chunk = Integer.toHexString(packet.length()) + "\r\n" + packet + "\r\n";
    try (var log = new LogCapture()) {
      // A whole packet's body in a good chunk, then a size that is no number; and one at once.
      for (String body :
          List.of(chunk + "zz\r\n}\r\n0\r\n\r\n", "zz\r\n" + packet + "\r\n0\r\n\r\n")) {
        try (Socket socket = connect()) {
          send(socket, chunkedPost(token, "chunks-" + body.length(), body));
          assertThat(readUntilClosed(socket, Duration.ofSeconds(5)))
              .as("closed by Vert.x, which answers nothing once the body's framing broke: " + body)
              .hasValue("");
        }
      }
      assertThat(log.events()).noneMatch(e -> e.getThrowableProxy() != null);
      List<ILoggingEvent> failures =
          log.events().stream()
              .filter(e -> e.getLoggerName().equals("hongbao.http.Failures"))
              .toList();
      assertThat(failures).allMatch(e -> e.getLevel() == Level.INFO);
      assertThat(failures)
          .filteredOn(e -> e.getFormattedMessage().startsWith("malformed request body"))
          .hasSize(2);
    }
    assertThat(api.get("/api/v1/packets?box=sent", token).json().getJsonArray("items"))
        .as("nothing sent")
        .isEmpty();
    // The same body, framed well, is a packet: what the refused ones would have made.
    try (Socket socket = connect()) {
      send(socket, chunkedPost(token, "chunks-framed", chunk + "0\r\n\r\n"));
      assertThat(readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow())
          .matches("(?s)HTTP/1\\.1 201 .*");
    }
    assertThat(api.get("/api/v1/packets?box=sent", token).json().getJsonArray("items")).hasSize(1);
  }

  /**
   * A {@code Transfer-Encoding} other than {@code chunked} alone left the body unframed: Netty took
   * the request to have no body and read its body as the next request, which ran and moved money.
   * Such a request is refused, and nothing hidden behind it runs.
   */
  @Test
  void aTransferEncodingOtherThanChunked_isRefused_andNothingHiddenInTheBodyRuns()
      throws IOException {
    String token = api.token("smuggler");
    assertThat(api.topUp("smuggler", 1_000).status()).isEqualTo(200);
    String packet =
        JsonObject.of("amount", 100, "count", 2, "type", "LUCKY", "expiresInSeconds", 3_600)
            .encode();
    double refusedBefore = refused("transfer-encoding");
    try (var log = new LogCapture()) {
      for (String coding :
          List.of("identity", "gzip", "xchunked", "", "gzip, chunked", "chunked, chunked")) {
        String hidden =
            "POST /api/v1/packets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + token
                + "\r\nIdempotency-Key: hidden-"
                + coding.hashCode()
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + packet.length()
                + "\r\n\r\n"
                + packet;
        try (Socket socket = connect()) {
          send(
              socket,
              "POST /api/v1/packets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + token
                  + "\r\nIdempotency-Key: outer\r\nContent-Type: application/json"
                  + "\r\nTransfer-Encoding: "
                  + coding
                  + "\r\n\r\n"
                  + hidden);
          String answer = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
          if (coding.endsWith("chunked")) {
            // Netty frames these as chunked, and the hidden request is no chunk: its decoder
            // fails and Vert.x closes the connection, the refusal written or not.
            assertThat(answer).as(coding).matches("(?s)(HTTP/1\\.1 400 .*)?");
          } else {
            assertThat(answer).as(coding).matches("(?s)HTTP/1\\.1 400 .*");
          }
          if (!answer.isEmpty()) {
            assertThat(answer.split("HTTP/1\\.1 ", -1)).as("one answer: " + coding).hasSize(2);
            assertThat(answer.toLowerCase()).contains("connection: close");
            assertThat(errorCode(answer)).isEqualTo("INVALID_REQUEST");
          }
        }
      }
      assertThat(log.events()).noneMatch(e -> e.getThrowableProxy() != null);
    }
    assertThat(refused("transfer-encoding") - refusedBefore)
        .as("counted: the four answered 400 surely, the two framed as chunked if they got that far")
        .isBetween(4.0, 6.0);
    assertThat(api.get("/api/v1/packets?box=sent", token).json().getJsonArray("items"))
        .as("no packet made")
        .isEmpty();
    assertThat(api.get("/api/v1/wallet", token).json().getLong("balance")).isEqualTo(1_000L);
    // Requests pipelined behind a well-framed one are served as before.
    try (Socket socket = connect()) {
      send(
          socket,
          "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
              + "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      String answers = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
      assertThat(answers.split("HTTP/1\\.1 200 ", -1)).hasSize(3);
    }
  }

  /**
   * RFC 9112 asks a Host of every HTTP/1.1 request; Vert.x would not route one without, nor one
   * whose Host names no valid authority: both were a 500, logged as a bug.
   */
  @Test
  void anHttp11RequestWithoutHost_isA400_andNoErrorInTheLog() throws IOException {
    double refusedBefore = refused("host");
    try (var log = new LogCapture()) {
      // No Host; then a Host that names no valid authority, refused by the router.
      for (String host : List.of("", "Host: [::1\r\n")) {
        try (Socket socket = connect()) {
          send(socket, "GET /health HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n");
          String answer = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
          assertThat(answer).as(host).matches("(?s)HTTP/1\\.1 400 .*");
          assertThat(errorCode(answer)).isEqualTo("INVALID_REQUEST");
        }
      }
      try (Socket socket = connect()) {
        send(socket, "GET /health HTTP/1.0\r\n\r\n");
        assertThat(readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow())
            .as("HTTP/1.0 needs none")
            .matches("(?s)HTTP/1\\.0 200 .*");
      }
      assertThat(log.events()).noneMatch(e -> e.getThrowableProxy() != null);
      assertThat(log.events()).noneMatch(e -> e.getLevel() == Level.ERROR);
    }
    assertThat(refused("host") - refusedBefore)
        .as("the request without Host (the router refuses the one naming no authority)")
        .isEqualTo(1.0);
  }

  /**
   * A method an API path does not take is a 405 naming the methods it does take, whichever other
   * routes the path passes on the way (the admin filter, the web UI's files); a path no route takes
   * is a 404. Both after authentication, as every API answer.
   */
  @Test
  void aMethodAnApiPathDoesNotTake_isA405_namingThoseItTakes() throws IOException {
    String admin = api.adminToken();
    Map<String, String> allowed =
        Map.of(
            "GET /api/v1/admin/topups", "POST",
            "GET /api/v1/packets/k3Gx9Q/grab", "POST",
            "DELETE /api/v1/packets/k3Gx9Q", "GET, HEAD",
            "PUT /api/v1/wallet", "GET, HEAD",
            "PUT /api/v1/wallet/", "GET, HEAD",
            "PATCH /api/v1/withdrawals", "GET, HEAD, POST",
            "HEAD /api/v1/admin/topups", "POST");
    try (var log = new LogCapture()) {
      for (var request : allowed.entrySet()) {
        String answer = rawCall(request.getKey(), admin);
        assertThat(answer).as(request.getKey()).matches("(?s)HTTP/1\\.1 405 .*");
        assertThat(answer)
            .as(request.getKey())
            .containsIgnoringCase("\r\nallow: " + request.getValue() + "\r\n");
        if (!request.getKey().startsWith("HEAD")) {
          assertThat(errorCode(answer)).isEqualTo("INVALID_REQUEST");
        } else {
          assertThat(answer).as("no body to a HEAD").endsWith("\r\n\r\n");
        }
      }
      for (String unknown : List.of("GET /api/v1/nothing", "POST /api/v1/packets/k3Gx9Q/grab/x")) {
        String answer = rawCall(unknown, admin);
        assertThat(answer).as(unknown).matches("(?s)HTTP/1\\.1 404 .*");
        assertThat(errorCode(answer)).isEqualTo("NOT_FOUND");
      }
      assertThat(rawCall("GET /api/v1/admin/topups", null))
          .as("authentication first")
          .matches("(?s)HTTP/1\\.1 401 .*");
      assertThat(rawCall("GET /api/v1/admin/topups", api.token("not-admin")))
          .as("then the admin check")
          .matches("(?s)HTTP/1\\.1 403 .*");
      assertThat(log.events()).noneMatch(e -> e.getLevel() == Level.ERROR);
    }
  }

  /**
   * A HEAD is answered as its GET, head only: the status and the headers (Content-Length the GET's,
   * or none where the server would have to guess it), and no body (it was a 405 under /api/, and
   * elsewhere what the web UI's files made of it). Its query is read as the GET's, and its checks
   * come in the GET's order.
   */
  @Test
  void aHead_isAnsweredAsItsGet_withoutTheBody() throws IOException {
    String admin = api.adminToken();
    for (String path : List.of("/health", "/api/v1/wallet", "/api/v1/packets?box=sent", "/")) {
      String get = rawCall("GET " + path, admin);
      String head = rawCall("HEAD " + path, admin);
      assertThat(head).as(path).startsWith("HTTP/1.1 200 ").endsWith("\r\n\r\n");
      assertThat(header(head, "content-type")).as(path).isEqualTo(header(get, "content-type"));
      if (head.toLowerCase(java.util.Locale.ROOT).contains("\r\ncontent-length: ")) {
        assertThat(header(head, "content-length"))
            .as("%s: the GET's Content-Length, or none", path)
            .isEqualTo(header(get, "content-length"));
      }
      assertThat(get).as(path).doesNotEndWith("\r\n\r\n");
    }
    assertThat(rawCall("HEAD /api/v1/packets?box=neither", admin))
        .as("the query read as the GET's")
        .matches("(?s)HTTP/1\\.1 400 .*")
        .endsWith("\r\n\r\n");
    assertThat(rawCall("HEAD /api/v1/wallet", null)).matches("(?s)HTTP/1\\.1 401 .*");
    assertThat(rawCall("HEAD /api/v1/nothing", admin)).matches("(?s)HTTP/1\\.1 404 .*");
    assertThat(rawCall("HEAD abc", admin)).as("no path").matches("(?s)HTTP/1\\.1 4\\d\\d .*");
  }

  /** The value of header {@code name} in a raw HTTP answer. */
  private static String header(String answer, String name) {
    Matcher header = Pattern.compile("(?i)\r\n" + name + ": ([^\r]*)\r\n").matcher(answer);
    assertThat(header.find()).as("a %s in %s", name, answer).isTrue();
    return header.group(1);
  }

  /** Two Idempotency-Key headers on one request: which one counts is nobody's guess, so a 400. */
  @Test
  void anIdempotencyKeySentTwice_isA400_andMovesNothing() throws IOException {
    String admin = api.adminToken();
    String body = JsonObject.of("userId", "twice-keyed", "amount", 500).encode();
    try (Socket socket = connect()) {
      send(
          socket,
          "POST /api/v1/admin/topups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
              + admin
              + "\r\nIdempotency-Key: one\r\nIdempotency-Key: two"
              + "\r\nContent-Type: application/json\r\nContent-Length: "
              + body.length()
              + "\r\nConnection: close\r\n\r\n"
              + body);
      String answer = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
      assertThat(answer).matches("(?s)HTTP/1\\.1 400 .*");
      assertThat(errorCode(answer)).isEqualTo("INVALID_REQUEST");
    }
    assertThat(api.get("/api/v1/wallet", api.token("twice-keyed")).json().getLong("balance"))
        .isZero();
  }

  /**
   * Two Authorization headers: served as the first, a proxy in front that keeps the other would
   * limit or audit the request as someone else. Refused, whichever tokens they carry.
   */
  @Test
  void twoAuthorizationHeaders_areA401() throws IOException {
    String alice = api.token("two-headers-a");
    String bob = api.token("two-headers-b");
    try (Socket socket = connect()) {
      send(
          socket,
          "GET /api/v1/wallet HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
              + alice
              + "\r\nAuthorization: Bearer "
              + bob
              + "\r\nConnection: close\r\n\r\n");
      String answer = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
      assertThat(answer).matches("(?s)HTTP/1\\.1 401 .*");
      assertThat(errorCode(answer)).isEqualTo("UNAUTHENTICATED");
    }
    assertThat(rawCall("GET /api/v1/wallet", alice))
        .as("one is enough")
        .matches("(?s)HTTP/1\\.1 200 .*");
  }

  /** One request ({@code "METHOD /path"}) without a body, its whole raw answer. */
  private String rawCall(String request, String token) throws IOException {
    try (Socket socket = connect()) {
      send(
          socket,
          request
              + " HTTP/1.1\r\nHost: x\r\n"
              + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
              + "Connection: close\r\n\r\n");
      return readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
    }
  }

  /** The service's count of requests refused before routing for {@code reason}. */
  private double refused(String reason) {
    Matcher line =
        Pattern.compile(
                "(?m)^hongbao_http_refused_total\\{[^}]*reason=\"" + reason + "\"[^}]*} (\\S+)$")
            .matcher(api.get("/metrics", null).raw());
    assertThat(line.find()).as("the counter for " + reason + " is exported").isTrue();
    return Double.parseDouble(line.group(1));
  }

  /** The error code in the JSON body of a raw HTTP answer. */
  private static String errorCode(String answer) {
    String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
    return new JsonObject(body).getJsonObject("error").getString("code");
  }

  private static String chunkedPost(String token, String idempotencyKey, String chunkedBody) {
    return "POST /api/v1/packets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        + token
        + "\r\nIdempotency-Key: "
        + idempotencyKey
        + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked"
        + "\r\nConnection: close\r\n\r\n"
        + chunkedBody;
  }

  /**
   * Vert.x's static handler decodes an encoded {@code /} into a path that can normalize to nothing,
   * and then fails with an index error: {@code GET /..%2f} was a 500. The web UI and the API's
   * browsable description serve no file with an encoded separator in its name.
   */
  @Test
  void staticPathsWithAnEncodedSeparator_areA404_andNoErrorInTheLog() throws IOException {
    try (var log = new LogCapture()) {
      for (String target :
          List.of(
              "/..%2f", "/..%2F..%2Fetc/passwd", "/docs/..%2f", "/docs/..%2f..%2f", "/%5c..%5c")) {
        try (Socket socket = connect()) {
          send(socket, "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
          String answer = readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow();
          assertThat(answer).as(target).matches("(?s)HTTP/1\\.1 404 .*");
        }
      }
      assertThat(log.events()).noneMatch(e -> e.getThrowableProxy() != null);
    }
    assertThat(api.get("/", null).status()).as("the web UI itself").isEqualTo(200);
    assertThat(api.get("/docs/", null).status()).as("the API's description").isEqualTo(200);
  }

  private static HttpClient.Version versionSpoken(int port) throws IOException {
    try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      return response.version();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void cleartextHttp2_isOffUnlessConfigured() throws IOException {
    assertThat(versionSpoken(port())).isEqualTo(HttpClient.Version.HTTP_1_1);
    try (Socket socket = connect()) {
      // HTTP/2 with prior knowledge: a server speaking it would answer with a binary SETTINGS
      // frame; this one reads the preface as an HTTP/1 request line of an unknown version.
      send(socket, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
      assertThat(readUntilClosed(socket, Duration.ofSeconds(5)).orElseThrow()).startsWith("HTTP/");
    }
    try (TestService h2c =
        TestService.start(Backends.embedded(), Map.of("HONGBAO_HTTP2_CLEARTEXT", "true"), false)) {
      assertThat(versionSpoken(h2c.hongbao().port())).isEqualTo(HttpClient.Version.HTTP_2);
    }
  }

  @Test
  void devMode_listensOnTheLoopbackAddressOnly() throws IOException {
    Optional<InetAddress> outside =
        NetworkInterface.networkInterfaces()
            .filter(
                nic -> {
                  try {
                    return nic.isUp() && !nic.isLoopback();
                  } catch (IOException e) {
                    return false;
                  }
                })
            .flatMap(NetworkInterface::inetAddresses)
            .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
            .findFirst();
    assumeTrue(outside.isPresent(), "this machine has no address beside the loopback one");
    try (var socket = new Socket()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> socket.connect(new InetSocketAddress(outside.get(), port()), 2_000))
          .isInstanceOf(ConnectException.class);
    }
    try (Socket socket = connect()) {
      assertThat(socket.isConnected()).isTrue();
    }
  }
}

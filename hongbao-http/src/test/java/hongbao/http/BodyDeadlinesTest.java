package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BodyDeadlines} on a real Vert.x server with one event loop (so the test can look at that
 * loop's requests from a task of its own): finished requests leave, a trickled body is answered 408
 * after the limit and its connection closed.
 */
class BodyDeadlinesTest {

  private static final Duration LIMIT = Duration.ofMillis(400);

  private Vertx vertx;
  private HttpServer server;
  private BodyDeadlines deadlines;

  @BeforeEach
  void startServer() throws Exception {
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    deadlines = new BodyDeadlines(vertx, LIMIT);
    Router router = Router.router(vertx);
    router.route().handler(deadlines::start);
    // Answers before the body is in: too late for a 408 when the deadline comes.
    router
        .post("/early")
        .handler(
            ctx -> ctx.response().setChunked(true).write("started").onSuccess(ok -> ctx.next()));
    router.route().handler(BodyHandler.create(false));
    router.post("/echo").handler(ctx -> ctx.response().end(ctx.body().asString()));
    server =
        vertx
            .createHttpServer()
            .requestHandler(router)
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private int waitingOnTheLoop() throws Exception {
    var count = new CompletableFuture<Integer>();
    vertx.runOnContext(ignored -> count.complete(deadlines.waitingOnThisLoop()));
    return count.get(10, TimeUnit.SECONDS);
  }

  @Test
  void finishedRequests_leaveTheLoopsArray_andNoneIsAnswered408() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.actualPort())) {
      socket.setSoTimeout(10_000);
      var pipelined = new StringBuilder();
      int requests = 500;
      for (int i = 0; i < requests; i++) {
        String body = "{\"n\":" + i + "}";
        pipelined
            .append("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: ")
            .append(body.length())
            .append("\r\n\r\n")
            .append(body);
      }
      socket.getOutputStream().write(pipelined.toString().getBytes(StandardCharsets.US_ASCII));
      String answers = readAtLeast(socket.getInputStream(), "{\"n\":" + (requests - 1) + "}");
      assertThat(answers.split("HTTP/1.1 200 ", -1)).hasSize(requests + 1);
      assertThat(answers).doesNotContain("HTTP/1.1 408");
    }
    // The loop's next sweep lets them go: a few sweeps at most, however busy the machine.
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (waitingOnTheLoop() > 0 && System.nanoTime() < until) {
      Thread.sleep(BodyDeadlines.SWEEP_MILLIS);
    }
    assertThat(waitingOnTheLoop()).isZero();
  }

  @Test
  void aTrickledBody_isAnswered408AfterTheLimit_andItsConnectionClosed() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.actualPort())) {
      socket.setSoTimeout(100);
      long started = System.nanoTime();
      Sender out = new Sender(socket);
      out.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{");
      var received = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      int read = 0;
      while (read >= 0 && System.nanoTime() - started < Duration.ofSeconds(5).toNanos()) {
        out.send(" "); // never idle, never complete
        try {
          read = socket.getInputStream().read(buffer);
          if (read > 0) {
            received.write(buffer, 0, read);
          }
        } catch (SocketTimeoutException e) {
          // nothing yet
        } catch (IOException e) {
          break; // reset after the answer: the connection is gone either way
        }
      }
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      assertThat(received.toString(StandardCharsets.UTF_8)).startsWith("HTTP/1.1 408 ");
      assertThat(read).as("closed by the server").isNegative();
      assertThat(tookMillis).isBetween(LIMIT.toMillis(), LIMIT.toMillis() + 2_000);
    }
    assertThat(waitingOnTheLoop()).isZero();
  }

  @Test
  void aRequestThatCannotBeAnswered408_isClosed_andTheOthersStillGetTheirs() throws Exception {
    try (Socket early = new Socket("127.0.0.1", server.actualPort());
        Socket slow = new Socket("127.0.0.1", server.actualPort())) {
      // The early one joins the loop's array first, so the sweep meets its failure first.
      new Sender(early).send("POST /early HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{");
      Thread.sleep(50);
      new Sender(slow).send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{");
      String earlyAnswer = readUntilClosed(early);
      String slowAnswer = readUntilClosed(slow);
      assertThat(earlyAnswer).startsWith("HTTP/1.1 200 ").contains("started");
      assertThat(slowAnswer).startsWith("HTTP/1.1 408 ");
    }
    assertThat(waitingOnTheLoop()).isZero();
  }

  /** All a socket receives until the server closes it, or 5 s. */
  private static String readUntilClosed(Socket socket) throws IOException {
    socket.setSoTimeout(5_000);
    var received = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int read; (read = socket.getInputStream().read(buffer)) >= 0; ) {
        received.write(buffer, 0, read);
      }
    } catch (SocketTimeoutException e) {
      received.writeBytes("[not closed within 5 s]".getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      // reset: closed all the same
    }
    return received.toString(StandardCharsets.US_ASCII);
  }

  private static String readAtLeast(InputStream in, String last) throws IOException {
    var received = new ByteArrayOutputStream();
    byte[] buffer = new byte[65536];
    while (!received.toString(StandardCharsets.US_ASCII).contains(last)) {
      int read = in.read(buffer);
      if (read < 0) {
        break;
      }
      received.write(buffer, 0, read);
    }
    return received.toString(StandardCharsets.US_ASCII);
  }

  /** Writes text; a write to a socket the server has closed ends the trickle quietly. */
  private record Sender(Socket socket) {
    void send(String text) {
      try {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
      } catch (IOException e) {
        // closed by the server after its answer
      }
    }
  }
}

package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import hongbao.core.money.Amount;
import hongbao.core.reward.Issuer;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.VirtualQueue;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The issuer's answers, from a real HTTP server on loopback that answers what each test sets. */
class HttpRewardIssuerTest {

  private static final Reward REWARD =
      new Reward("t-1", "u-1", "c-1", "test", "TEA", Amount.fen(1), "", Instant.EPOCH);

  private final AtomicInteger status = new AtomicInteger(200);
  private final AtomicInteger calls = new AtomicInteger();
  private final HttpRewardIssuer issuer = new HttpRewardIssuer(Duration.ofSeconds(5));
  private HttpServer server;
  private RewardType type;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/issue",
        exchange -> {
          calls.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          byte[] body = "{\"error\":\"as set\"}".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Location", "https://elsewhere.invalid/issue");
          exchange.sendResponseHeaders(status.get(), body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/issue";
    type = new RewardType("TEA", RewardKind.COUPON, 1_000, 100, false, VirtualQueue.EXPRESS, url);
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void aSuccess_isIssued() {
    assertThat(issuer.issue(REWARD, type)).isInstanceOf(Issuer.Issue.Issued.class);
    assertThat(calls).hasValue(1);
  }

  @Test
  void aClientError_isAFinalRefusal_withTheIssuersWords() {
    status.set(422);

    Issuer.Issue issue = issuer.issue(REWARD, type);

    assertThat(issue).isInstanceOf(Issuer.Issue.Refused.class);
    assertThat(((Issuer.Issue.Refused) issue).reason()).contains("422").contains("as set");
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 429, 500, 503})
  void aBusyOrFailingIssuer_isTriedAgainLater(int answer) {
    status.set(answer);

    assertThatThrownBy(() -> issuer.issue(REWARD, type))
        .isInstanceOf(Issuer.IssuerUnavailable.class)
        .hasMessageContaining(Integer.toString(answer));
  }

  /** A refusal would fail the reward for good over a URL the operator can mend. */
  @ParameterizedTest
  @ValueSource(ints = {301, 302, 307, 308})
  void aRedirect_isNotFollowed_andIsTriedAgainLater_notRefused(int answer) {
    status.set(answer);

    assertThatThrownBy(() -> issuer.issue(REWARD, type))
        .isInstanceOf(Issuer.IssuerUnavailable.class)
        .hasMessageContaining(Integer.toString(answer))
        .hasMessageContaining("issuerUrl");
    assertThat(calls).hasValue(1);
  }
}

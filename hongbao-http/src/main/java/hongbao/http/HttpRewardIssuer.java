package hongbao.http;

import hongbao.core.reward.Issuer;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardType;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Calls a type's HTTP issuer: {@code POST {issuerUrl}} with {@code {"tradeNo","userId","type",
 * "amount"}}; the issuer is idempotent by tradeNo, so a retry after a timeout is safe. 2xx is
 * issued; 429, 408, 5xx, a timeout or a refused connection mean "try again later"; any other 4xx is
 * a final refusal. A redirect is not followed (the request would be re-sent elsewhere, or turned
 * into a GET): it is a misplaced URL, not the issuer's answer, so it too means "try again later",
 * until the operator mends the type's {@code issuerUrl}; a refusal would fail the reward for good.
 * Blocking: callers are consumer workers. Thread-safe.
 */
public final class HttpRewardIssuer implements Issuer {

  private final HttpClient http;
  private final Duration timeout;

  public HttpRewardIssuer(Duration timeout) {
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
  }

  @Override
  public Issue issue(Reward reward, RewardType type) {
    String body =
        new JsonObject()
            .put("tradeNo", reward.tradeNo())
            .put("userId", reward.userId())
            .put("type", reward.type())
            .put("amount", reward.amount().fen())
            .encode();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(type.issuerUrl()))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IssuerUnavailable("issuer " + type.issuerUrl() + " unreachable: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IssuerUnavailable("interrupted calling the issuer");
    }
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return new Issue.Issued();
    }
    if (status == 408 || status == 429 || status >= 500) {
      throw new IssuerUnavailable("issuer answered " + status);
    }
    if (status < 400) {
      throw new IssuerUnavailable(
          "issuer answered "
              + status
              + " (a redirect, not followed: is issuerUrl "
              + type.issuerUrl()
              + " right?)");
    }
    String reason = response.body();
    return new Issue.Refused(
        "issuer answered "
            + status
            + ": "
            + (reason.length() > 200 ? reason.substring(0, 200) : reason));
  }
}

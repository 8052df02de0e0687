package hongbao.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import hongbao.client.Messages.Activity;
import hongbao.client.Messages.Claim;
import hongbao.client.Messages.Grab;
import hongbao.client.Messages.Packet;
import hongbao.client.Messages.PacketPage;
import hongbao.client.Messages.Reconciliation;
import hongbao.client.Messages.Reward;
import hongbao.client.Messages.RewardCampaign;
import hongbao.client.Messages.RewardSent;
import hongbao.client.Messages.RewardType;
import hongbao.client.Messages.RewardTypes;
import hongbao.client.Messages.Send;
import hongbao.client.Messages.Sent;
import hongbao.client.Messages.Statement;
import hongbao.client.Messages.Token;
import hongbao.client.Messages.TokenValidity;
import hongbao.client.Messages.TopUp;
import hongbao.client.Messages.Wallet;
import hongbao.client.Messages.Withdrawal;
import hongbao.client.Messages.WithdrawalPage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * A client of the hongbao HTTP API (docs/api.md), one typed method per endpoint. Immutable: {@link
 * #withToken} and {@link #withRetries} return new clients sharing the connection pool.
 *
 * <p>Retries are only made where they cannot move money twice. A call is tried again after a 503 or
 * a transport failure only when repeating it is harmless: reads, PUTs, grabs and claims (one share
 * per user, whatever is repeated), and the calls that carry an Idempotency-Key, which is chosen
 * once per call and sent unchanged on every attempt, so the server replays its first answer. A call
 * that is not idempotent (creating an activity) is retried only when the connection was never made.
 * Any other error answer is thrown at once as a {@link HongbaoException}.
 */
public final class HongbaoClient {

  private static final long DEFAULT_TIMEOUT_SECONDS = 30;
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final HttpClient http;
  private final URI base;
  private final String token;
  private final RetryPolicy retries;
  private final Sleeper sleeper;
  private final RandomGenerator random;
  private final Supplier<String> keys;
  private final Duration timeout;

  private HongbaoClient(
      HttpClient http,
      URI base,
      String token,
      RetryPolicy retries,
      Sleeper sleeper,
      RandomGenerator random,
      Supplier<String> keys,
      Duration timeout) {
    this.http = http;
    this.base = base;
    this.token = token;
    this.retries = retries;
    this.sleeper = sleeper;
    this.random = random;
    this.keys = keys;
    this.timeout = timeout;
  }

  /** A client of the service at {@code base} (e.g. http://127.0.0.1:8080), without a token. */
  public static HongbaoClient create(URI base) {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    return new HongbaoClient(
        http,
        base,
        null,
        RetryPolicy.DEFAULT,
        Sleeper.REAL,
        RandomGenerator.getDefault(),
        () -> UUID.randomUUID().toString(),
        DEFAULT_TIMEOUT);
  }

  /** The same client calling as the holder of {@code bearerToken}. */
  public HongbaoClient withToken(String bearerToken) {
    return new HongbaoClient(http, base, bearerToken, retries, sleeper, random, keys, timeout);
  }

  /** The same client with another retry policy, and the waits and jitter it draws from. */
  public HongbaoClient withRetries(RetryPolicy policy, Sleeper waits, RandomGenerator jitter) {
    return new HongbaoClient(http, base, token, policy, waits, jitter, keys, timeout);
  }

  /** Idempotency keys from {@code source} rather than random UUIDs. */
  public HongbaoClient withKeys(Supplier<String> source) {
    return new HongbaoClient(http, base, token, retries, sleeper, random, source, timeout);
  }

  /**
   * Each attempt waits for its answer at most {@code perAttempt} rather than {@value
   * #DEFAULT_TIMEOUT_SECONDS} s: an admin's reconciliation after a large run reads every packet.
   */
  public HongbaoClient withTimeout(Duration perAttempt) {
    return new HongbaoClient(http, base, token, retries, sleeper, random, keys, perAttempt);
  }

  // --- operations ---------------------------------------------------------------------------

  public boolean ready() {
    try {
      call(Call.get("/ready"), JsonNode.class);
      return true;
    } catch (HongbaoException e) {
      return false;
    }
  }

  /** Dev mode only: a token for {@code userId}. */
  public String devToken(String userId, boolean admin) {
    return call(
            Call.post("/api/v1/dev/tokens", Map.of("userId", userId, "admin", admin), true),
            Token.class)
        .token();
  }

  // --- money

  public TopUp topUp(String userId, long amount) {
    return topUp(userId, amount, keys.get());
  }

  public TopUp topUp(String userId, long amount, String idempotencyKey) {
    return call(
        Call.post("/api/v1/admin/topups", Map.of("userId", userId, "amount", amount), true)
            .key(idempotencyKey),
        TopUp.class);
  }

  public Wallet wallet(int limit) {
    return call(Call.get("/api/v1/wallet" + query("limit", limit)), Wallet.class);
  }

  public Sent send(Send packet) {
    return send(packet, keys.get());
  }

  public Sent send(Send packet, String idempotencyKey) {
    return call(Call.post("/api/v1/packets", packet, true).key(idempotencyKey), Sent.class);
  }

  // --- packets

  /**
   * Grabs a share ({@code password} null without a 口令). A retried grab may answer ALREADY_GRABBED
   * for the share the first attempt took: same amount, no receipt.
   */
  public Grab grab(String packetId, String password) {
    Map<String, Object> body = new LinkedHashMap<>();
    if (password != null) {
      body.put("password", password);
    }
    return call(Call.post("/api/v1/packets/" + path(packetId) + "/grab", body, true), Grab.class);
  }

  public Claim claim(String packetId, String receipt) {
    return call(
        Call.post(
            "/api/v1/packets/" + path(packetId) + "/claims", Map.of("receipt", receipt), true),
        Claim.class);
  }

  public Packet packet(String packetId) {
    return call(Call.get("/api/v1/packets/" + path(packetId)), Packet.class);
  }

  /** {@code box} "sent" or "received"; {@code cursor} null for the first page. */
  public PacketPage packets(String box, int limit, String cursor) {
    return call(
        Call.get(
            "/api/v1/packets" + query("box", box) + "&limit=" + limit + cursorParameter(cursor)),
        PacketPage.class);
  }

  // --- activities

  /** Not idempotent: a retry after the request may have arrived could make a second activity. */
  public Activity createActivity(String name, int maxGrabsPerUser) {
    return call(
        Call.post(
            "/api/v1/admin/activities",
            Map.of("name", name, "maxGrabsPerUser", maxGrabsPerUser),
            false),
        Activity.class);
  }

  public Activity activity(String activityId, int limit, String cursor) {
    return call(
        Call.get(
            "/api/v1/activities/"
                + path(activityId)
                + query("limit", limit)
                + cursorParameter(cursor)),
        Activity.class);
  }

  // --- operations (admin)

  public Map<String, Boolean> switches() {
    return call(Call.get("/api/v1/admin/switches"), new TypeReference<>() {});
  }

  public Map<String, Boolean> setSwitch(String name, boolean enabled) {
    return call(
        Call.put("/api/v1/admin/switches/" + path(name), Map.of("enabled", enabled)),
        new TypeReference<>() {});
  }

  public Reconciliation reconcile() {
    return call(Call.get("/api/v1/admin/reconciliation"), Reconciliation.class);
  }

  // --- rewards

  public List<RewardType> rewardTypes() {
    return call(Call.get("/api/v1/admin/reward-types"), RewardTypes.class).items();
  }

  /** {@code type} names it; its own {@code type} field is left out of the body. */
  public RewardType putRewardType(RewardType type) {
    var body =
        new RewardType(
            null,
            type.kind(),
            type.ratePerSecond(),
            type.burst(),
            type.fused(),
            type.queue(),
            type.issuerUrl());
    return call(
        Call.put("/api/v1/admin/reward-types/" + path(type.type()), body), RewardType.class);
  }

  public RewardCampaign openRewardCampaign(String campaignId, long budget) {
    return call(
        Call.post(
            "/api/v1/admin/reward-campaigns",
            Map.of("campaignId", campaignId, "budget", budget),
            true),
        RewardCampaign.class);
  }

  /** Its {@code tradeNo} is the idempotency key; {@code sync} waits for the credit. */
  public RewardSent sendReward(Reward reward, boolean sync) {
    return call(
        Call.post("/api/v1/rewards" + (sync ? "?mode=sync" : ""), reward, true), RewardSent.class);
  }

  public TokenValidity verifyRewardToken(String rewardToken) {
    return call(
        Call.post("/api/v1/rewards/tokens/verify", Map.of("token", rewardToken), true),
        TokenValidity.class);
  }

  /**
   * @param tokens the reward tokens the client keeps; null or empty for none
   */
  public Statement rewardStatement(List<String> tokens) {
    return call(
        Call.post("/api/v1/rewards/statement", Map.of("tokens", orNone(tokens)), true),
        Statement.class);
  }

  // --- withdrawals

  public Withdrawal withdraw(long amount, List<String> tokens) {
    return withdraw(amount, tokens, keys.get());
  }

  /**
   * @param tokens the reward tokens the client keeps, credited first; null or empty for none
   */
  public Withdrawal withdraw(long amount, List<String> tokens, String idempotencyKey) {
    return call(
        Call.post("/api/v1/withdrawals", Map.of("amount", amount, "tokens", orNone(tokens)), true)
            .key(idempotencyKey),
        Withdrawal.class);
  }

  private static List<String> orNone(List<String> tokens) {
    return tokens == null ? List.of() : tokens;
  }

  public WithdrawalPage withdrawals(int limit, String cursor) {
    return call(
        Call.get("/api/v1/withdrawals" + query("limit", limit) + cursorParameter(cursor)),
        WithdrawalPage.class);
  }

  public Withdrawal withdrawal(String withdrawalId) {
    return call(Call.get("/api/v1/withdrawals/" + path(withdrawalId)), Withdrawal.class);
  }

  // --- the transport ------------------------------------------------------------------------

  /** One request as made on every attempt: the same body and the same idempotency key. */
  private record Call(
      String method, String path, Object body, boolean idempotent, String idempotencyKey) {

    static Call get(String path) {
      return new Call("GET", path, null, true, null);
    }

    static Call put(String path, Object body) {
      return new Call("PUT", path, body, true, null);
    }

    static Call post(String path, Object body, boolean idempotent) {
      return new Call("POST", path, body, idempotent, null);
    }

    Call key(String key) {
      return new Call(method, path, body, true, key);
    }
  }

  private <T> T call(Call call, Class<T> type) {
    return read(execute(call), JSON.constructType(type));
  }

  private <T> T call(Call call, TypeReference<T> type) {
    return read(execute(call), JSON.constructType(type));
  }

  private static <T> T read(String body, com.fasterxml.jackson.databind.JavaType type) {
    try {
      return JSON.readValue(body, type);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("an answer that is not the expected JSON: " + body, e);
    }
  }

  private String execute(Call call) {
    HttpRequest request = request(call);
    for (int attempt = 1; ; attempt++) {
      boolean retryable;
      IOException failure = null;
      HttpResponse<String> response = null;
      try {
        response = http.send(request, HttpResponse.BodyHandlers.ofString());
      } catch (ConnectException | HttpConnectTimeoutException e) {
        failure = e; // the request never left: trying again cannot repeat it
      } catch (IOException e) {
        failure = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while calling " + call.path(), e);
      }
      if (response != null && response.statusCode() < 400) {
        return response.body();
      }
      retryable =
          response == null
              ? call.idempotent() || neverSent(failure)
              : response.statusCode() == 503 && call.idempotent();
      if (!retryable || attempt >= retries.maxAttempts()) {
        if (response != null) {
          throw error(response);
        }
        throw new UncheckedIOException(call.method() + " " + call.path() + " failed", failure);
      }
      pause(retries.delay(attempt, random));
    }
  }

  private static boolean neverSent(IOException failure) {
    return failure instanceof ConnectException || failure instanceof HttpConnectTimeoutException;
  }

  private void pause(Duration delay) {
    try {
      sleeper.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted between attempts", e);
    }
  }

  private HttpRequest request(Call call) {
    HttpRequest.BodyPublisher body;
    try {
      body =
          call.body() == null
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(call.body()));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write the request body", e);
    }
    var builder =
        HttpRequest.newBuilder(base.resolve(call.path()))
            .timeout(timeout)
            .method(call.method(), body);
    if (call.body() != null) {
      builder.header("Content-Type", "application/json");
    }
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    if (call.idempotencyKey() != null) {
      builder.header("Idempotency-Key", call.idempotencyKey());
    }
    return builder.build();
  }

  private static HongbaoException error(HttpResponse<String> response) {
    try {
      JsonNode error = JSON.readTree(response.body()).path("error");
      return new HongbaoException(
          response.statusCode(),
          error.path("code").asText("HTTP_" + response.statusCode()),
          error.path("message").asText(response.body()));
    } catch (JsonProcessingException e) {
      return new HongbaoException(
          response.statusCode(), "HTTP_" + response.statusCode(), response.body());
    }
  }

  private static String path(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String query(String name, Object value) {
    return "?" + name + "=" + URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8);
  }

  private static String cursorParameter(String cursor) {
    return cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8);
  }
}

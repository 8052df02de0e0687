package hongbao.http.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The remembering verifier answers exactly what {@link Tokens} answers, at every instant. */
class VerifiedTokensTest {

  private static final String SECRET = "a-secret-of-at-least-thirty-two-bytes!";

  /** A clock the test moves by hand. */
  private static final class HandClock extends Clock {
    private Instant now = Instant.parse("2026-11-23T12:00:00.250Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  private final HandClock clock = new HandClock();
  private final Tokens tokens = new Tokens(SECRET, clock);
  private final VerifiedTokens verified = new VerifiedTokens(tokens, clock, 1_024);

  @Test
  void verify_ofTheSameTokenAgain_answersFromMemory() {
    String token = tokens.mint("alice", true, Duration.ofHours(1));

    assertThat(verified.verify(token)).contains(new Caller("alice", true));
    assertThat(verified.verify(token)).contains(new Caller("alice", true));
    assertThat(verified.hits()).isEqualTo(1);
  }

  @Test
  void verify_atAndAfterTheTokensExpiry_refusesIt() {
    String token = tokens.mint("bob", false, Duration.ofSeconds(10));
    assertThat(verified.verify(token)).isPresent();

    clock.advance(Duration.ofMillis(9_749));
    assertThat(verified.verify(token)).isPresent();
    clock.advance(Duration.ofMillis(1));
    assertThat(tokens.verify(token)).isEmpty();
    assertThat(verified.verify(token)).isEmpty();
  }

  @Test
  void verify_ofForgedOrExpiredTokens_refusesThemEveryTime() {
    String good = tokens.mint("carol", false, Duration.ofHours(1));
    String forged = good.substring(0, good.length() - 2) + (good.endsWith("A") ? "BB" : "AA");
    String expired = tokens.mint("carol", false, Duration.ofSeconds(-1));
    String otherKey =
        new Tokens("another-secret-of-at-least-32-bytes!!", clock)
            .mint("carol", false, Duration.ofHours(1));

    for (int i = 0; i < 3; i++) {
      for (String token :
          new String[] {forged, expired, otherKey, "", "a.b.c", "x".repeat(3_000)}) {
        assertThat(verified.verify(token)).as(token).isEmpty();
      }
    }
    assertThat(verified.verify(null)).isEmpty();
    assertThat(verified.hits()).isZero();
  }

  @Test
  void verify_overSeededHistories_matchesTokensAtEveryStep() {
    var random = new SplittableRandom(23);
    long hits = 0;
    for (int history = 0; history < 100; history++) {
      var tokenList = new ArrayList<String>();
      for (int t = 0; t < 8; t++) {
        long lifetimeMillis = random.nextLong(-5_000, 400_000);
        tokenList.add(
            tokens.mint("user-" + t, random.nextBoolean(), Duration.ofMillis(lifetimeMillis)));
      }
      var fresh = new VerifiedTokens(tokens, clock, 1 << random.nextInt(4));
      for (int step = 0; step < 200; step++) {
        String token = tokenList.get(random.nextInt(tokenList.size()));
        assertThat(fresh.verify(token)).as("step %s", step).isEqualTo(tokens.verify(token));
        clock.advance(Duration.ofMillis(random.nextLong(0, 20_000)));
      }
      hits += fresh.hits();
    }
    assertThat(hits).as("answers from memory").isPositive();
  }

  @Test
  void verify_ofALongLivedToken_remembersItNoLongerThanMaxAge() {
    // Whatever Tokens' rules become, memory never outlives MAX_AGE: then Tokens is asked again.
    String token = tokens.mint("dave", false, Duration.ofDays(3650));
    assertThat(verified.verify(token)).isPresent();
    clock.advance(VerifiedTokens.MAX_AGE.minusMillis(1));
    assertThat(verified.verify(token)).isPresent();
    long hits = verified.hits();
    clock.advance(Duration.ofMillis(1));
    assertThat(verified.verify(token)).isPresent();
    assertThat(verified.hits()).isEqualTo(hits);
  }

  /** A token signed with the service's secret over any payload text. */
  private static String signed(String payload) throws Exception {
    var jws =
        new com.nimbusds.jose.JWSObject(
            new com.nimbusds.jose.JWSHeader(com.nimbusds.jose.JWSAlgorithm.HS256),
            new com.nimbusds.jose.Payload(payload));
    jws.sign(new com.nimbusds.jose.crypto.MACSigner(SECRET.getBytes(StandardCharsets.UTF_8)));
    return jws.serialize();
  }

  @Test
  void verify_ofHandWrittenPayloads_matchesTokensAtEveryInstant() throws Exception {
    long now = clock.instant().getEpochSecond();
    var payloads =
        List.of(
            "{\"sub\":\"u1\",\"exp\":" + (now + 30) + "}",
            "{ \"exp\" : " + (now + 30) + " , \"sub\" : \"u2\" }",
            "{\"sub\":\"u3\",\"exp\":" + (now + 30) + ".75}",
            "{\"sub\":\"u4\",\"x\":{\"exp\":" + (now + 900) + "},\"exp\":" + (now + 30) + "}",
            "{\"sub\":\"u5\",\"a\\\"exp\":" + (now + 900) + ",\"exp\":" + (now + 30) + "}",
            "{\"sub\":\"u6\",\"a\\\"exp\":" + (now + 900) + "}",
            "{\"sub\":\"u7\"}",
            "{\"sub\":\"u8\",\"exp\":" + (now - 1) + "}",
            "{\"sub\":\"u9\",\"exp\":\"" + (now + 30) + "\"}",
            "{\"sub\":\"u10\",\"exp\":" + (now + 30) + "e0}");
    var tokenList = new ArrayList<String>();
    for (String payload : payloads) {
      tokenList.add(signed(payload));
    }
    var fresh = new VerifiedTokens(tokens, clock, 64);
    for (int step = 0; step < 80; step++) {
      for (String token : tokenList) {
        assertThat(fresh.verify(token))
            .as("step %s, %s", step, token)
            .isEqualTo(tokens.verify(token));
      }
      clock.advance(Duration.ofMillis(4_900));
    }
    assertThat(fresh.hits()).isPositive();
  }

  @Test
  void mint_isTokensMint() {
    String token = verified.mint("erin", false, Duration.ofMinutes(1));
    assertThat(tokens.verify(token)).contains(new Caller("erin", false));
    assertThat(List.of(token)).hasSize(1);
  }

  @Test
  void verify_ofTwoTokensRacingForOneSlot_neverAnswersTheOthersCaller() throws Exception {
    // One slot: every verification of a token not in it writes it, while others read it.
    var shared = new VerifiedTokens(tokens, clock, 1);
    String alice = tokens.mint("aaaaa", false, Duration.ofHours(1));
    String bob = tokens.mint("bbbbb", false, Duration.ofHours(1));
    assertThat(alice).hasSameSizeAs(bob);
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      var start = new CountDownLatch(1);
      var wrong = new AtomicLong();
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  var random = new SplittableRandom(seed);
                  for (int i = 0; i < 200_000; i++) {
                    boolean isAlice = random.nextBoolean();
                    Optional<Caller> caller = shared.verify(isAlice ? alice : bob);
                    Caller expected =
                        isAlice ? new Caller("aaaaa", false) : new Caller("bbbbb", false);
                    if (!caller.equals(Optional.of(expected))) {
                      wrong.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> each : done) {
        each.get();
      }
      assertThat(wrong.get()).as("answers naming the wrong caller").isZero();
      assertThat(shared.hits()).as("answers from memory").isPositive();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void verify_ofATokenLongerThanASlot_verifiesItEveryTime() throws Exception {
    long exp = clock.instant().getEpochSecond() + 60;
    String padded =
        signed(
            "{\"sub\":\"pad\",\"exp\":"
                + exp
                + ",\"x\":\""
                + "p".repeat(VerifiedTokens.MAX_REMEMBERED_LENGTH)
                + "\"}");
    assertThat(tokens.verify(padded)).contains(new Caller("pad", false));
    for (int i = 0; i < 3; i++) {
      assertThat(verified.verify(padded)).contains(new Caller("pad", false));
    }
    assertThat(verified.hits()).isZero();
  }

  @Test
  void verify_ofAnExpBeyondWhatAnInstantHolds_isAValidTokenRememberedForMaxAge() throws Exception {
    String token = signed("{\"sub\":\"far\",\"exp\":9223372036854775807}");
    assertThat(tokens.verify(token)).contains(new Caller("far", false));
    assertThat(verified.verify(token)).contains(new Caller("far", false));
    assertThat(verified.verify(token)).contains(new Caller("far", false));
    assertThat(verified.hits()).isEqualTo(1);
    clock.advance(VerifiedTokens.MAX_AGE);
    assertThat(verified.verify(token)).isPresent();
    assertThat(verified.hits()).as("asked Tokens again after MAX_AGE").isEqualTo(1);
  }
}

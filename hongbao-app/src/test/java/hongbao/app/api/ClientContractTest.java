package hongbao.app.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.app.embedded.FreePorts;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.client.HongbaoClient;
import hongbao.client.HongbaoException;
import hongbao.client.Messages.Send;
import hongbao.client.RetryPolicy;
import hongbao.testkit.FreezableProxy;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Java client against the real service: a packet's life through its typed calls, and its
 * retries — after a 503 or a reply lost after the commit with the same idempotency key (money moves
 * once), never after a 4xx, and a bounded number of times when nothing answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientContractTest {

  private static final RetryPolicy THREE_TRIES =
      new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(50));

  private TestService service;
  private HongbaoClient anonymous;
  private HongbaoClient admin;
  private final List<Duration> waits = new ArrayList<>();

  @BeforeAll
  void start() {
    service = TestService.start(Backends.embedded());
    anonymous =
        HongbaoClient.create(URI.create("http://127.0.0.1:" + service.hongbao().port()))
            .withRetries(THREE_TRIES, waits::add, new SplittableRandom(1));
    admin = anonymous.withToken(anonymous.devToken("ops", true));
  }

  @AfterEach
  void reconciles() {
    admin.setSwitch("sending", true);
    service.assertReconciled();
  }

  @AfterAll
  void stop() {
    service.close();
  }

  private static String user(String name) {
    return name + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private HongbaoClient as(String userId) {
    return anonymous.withToken(anonymous.devToken(userId, false));
  }

  @Test
  void aPacketsLife_throughTheTypedCalls() {
    String alice = user("alice");
    String bob = user("bob");
    HongbaoClient sender = as(alice);
    HongbaoClient grabber = as(bob);
    assertThat(admin.topUp(alice, 10_000).balance()).isEqualTo(10_000);

    var sent = sender.send(Send.lucky(1000, 2).withGreeting("恭喜发财"));
    var grab = grabber.grab(sent.id(), null);
    var packet = grabber.packet(sent.id());
    var claim = grabber.claim(sent.id(), grab.receipt());

    assertThat(grab.outcome()).isEqualTo("GRABBED");
    assertThat(grab.receipt()).isNotBlank();
    assertThat(packet.greeting()).isEqualTo("恭喜发财");
    assertThat(packet.grabs()).extracting(share -> share.userId()).containsExactly(bob);
    assertThat(claim.outcome()).isIn("PAID", "RECORDED");
    assertThat(claim.amount()).isEqualTo(grab.amount());
    assertThat(sender.wallet(10).balance()).isEqualTo(9_000);
    assertThat(sender.packets("sent", 10, null).items())
        .extracting(p -> p.id())
        .containsExactly(sent.id());
    assertThat(grabber.packets("received", 10, null).items())
        .singleElement()
        .satisfies(p -> assertThat(p.myShare().amount()).isEqualTo(grab.amount()));
    assertThat(admin.reconcile().ok()).isTrue();
  }

  @Test
  void aWithdrawal_withoutTokens() {
    String carol = user("carol");
    assertThat(admin.topUp(carol, 1_000).balance()).isEqualTo(1_000);
    var withdrawal = as(carol).withdraw(300, null);
    assertThat(withdrawal.amount()).isEqualTo(300);
    assertThat(as(carol).wallet(10).balance()).isEqualTo(700);
  }

  @Test
  void aSendAnswered503_isRetriedWithTheSameKey_andDebitsOnce() {
    String alice = user("alice");
    admin.topUp(alice, 5_000);
    admin.setSwitch("sending", false);
    var keys = new ArrayList<String>();
    waits.clear();
    HongbaoClient sender =
        as(alice)
            .withKeys(
                () -> {
                  keys.add(UUID.randomUUID().toString());
                  return keys.getLast();
                })
            .withRetries(
                THREE_TRIES,
                wait -> {
                  waits.add(wait);
                  admin.setSwitch("sending", true); // the outage ends during the first wait
                },
                new SplittableRandom(2));

    var sent = sender.send(Send.lucky(1000, 1));

    assertThat(waits).hasSize(1);
    assertThat(keys).hasSize(1);
    // The same key again replays the stored answer: the retry was this send, not another.
    assertThat(sender.send(Send.lucky(1000, 1), keys.getFirst()).id()).isEqualTo(sent.id());
    assertThat(sender.wallet(10).balance()).isEqualTo(4_000);
  }

  @Test
  void aSendWhoseReplyIsLost_isRetriedWithTheSameKey_andDebitsOnce() {
    String alice = user("alice");
    admin.topUp(alice, 5_000);
    var keys = new ArrayList<String>();
    waits.clear();
    try (var network = FreezableProxy.to("127.0.0.1", service.hongbao().port())) {
      HongbaoClient sender =
          HongbaoClient.create(URI.create("http://127.0.0.1:" + network.port()))
              .withToken(anonymous.devToken(alice, false))
              .withKeys(
                  () -> {
                    keys.add(UUID.randomUUID().toString());
                    return keys.getLast();
                  })
              .withRetries(THREE_TRIES, waits::add, new SplittableRandom(3));
      // The service sends the packet and answers 201; the answer never reaches the client.
      network.dropNextReply();

      var sent = sender.send(Send.lucky(1000, 1));

      assertThat(waits).hasSize(1);
      assertThat(keys).hasSize(1);
      assertThat(sender.wallet(10).balance()).isEqualTo(4_000);
      assertThat(sender.wallet(10).entries()).hasSize(2); // the top-up and one send
      assertThat(sender.send(Send.lucky(1000, 1), keys.getFirst()).id()).isEqualTo(sent.id());
    }
  }

  @Test
  void aRefusal_isNotRetried() {
    HongbaoClient poor = as(user("poor"));
    waits.clear();

    assertThatThrownBy(() -> poor.send(Send.lucky(1000, 1)))
        .isInstanceOfSatisfying(
            HongbaoException.class,
            e -> {
              assertThat(e.status()).isEqualTo(402);
              assertThat(e.code()).isEqualTo("INSUFFICIENT_FUNDS");
            });
    assertThat(waits).isEmpty();
  }

  @Test
  void noServer_isTriedABoundedNumberOfTimes() {
    var tried = new ArrayList<Duration>();
    HongbaoClient nowhere =
        HongbaoClient.create(URI.create("http://127.0.0.1:" + FreePorts.find()))
            .withRetries(THREE_TRIES, tried::add, new SplittableRandom(3));

    assertThatThrownBy(() -> nowhere.devToken("x", false)).isInstanceOf(UncheckedIOException.class);
    assertThat(tried)
        .hasSize(2)
        .allSatisfy(wait -> assertThat(wait).isLessThanOrEqualTo(Duration.ofMillis(50)));
  }
}

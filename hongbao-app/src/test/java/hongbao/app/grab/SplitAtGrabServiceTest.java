package hongbao.app.grab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The service configured to cut LUCKY shares at grab time, WeChat's way, end to end. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SplitAtGrabServiceTest {

  private TestService service;

  @BeforeAll
  void start() {
    service =
        TestService.start(Backends.embedded(), Map.of("HONGBAO_SPLIT_POLICY", "at-grab"), true);
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @Test
  void atGrabPacket_handsOutExactlyItsAmount_andIsPaid() {
    Api api = service.api();
    String sender = "atgrab-" + System.nanoTime();
    api.topUp(sender, 10_000);
    String token = api.token(sender);
    String packetId = api.sendLucky(token, 10_000, 20, 600);
    long sum = 0;
    var amounts = new HashSet<Long>();
    for (int i = 0; i < 20; i++) {
      JsonObject answer =
          api.grab(api.token("atgrab-user-" + i + "-" + System.nanoTime()), packetId).json();
      assertThat(answer.getString("outcome")).isEqualTo("GRABBED");
      sum += answer.getLong("amount");
      amounts.add(answer.getLong("amount"));
    }
    assertThat(sum).isEqualTo(10_000);
    assertThat(amounts).as("random shares, not equal ones").hasSizeGreaterThan(1);
    assertThat(api.grab(api.token("atgrab-late"), packetId).json().getString("outcome"))
        .isEqualTo("SOLD_OUT");
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(
                        api.get("/api/v1/packets/" + packetId, token).json().getJsonArray("grabs"))
                    .allSatisfy(g -> assertThat(((JsonObject) g).getBoolean("paid")).isTrue()));
    service.assertReconciled();
  }
}

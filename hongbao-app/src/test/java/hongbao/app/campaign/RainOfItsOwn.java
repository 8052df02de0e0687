package hongbao.app.campaign;

import hongbao.app.embedded.EmbeddedRedis;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A test class whose tests share a rain on a Redis and a schema of their own ({@link
 * RestartableRain}): for faults that touch the whole Redis (a restart, pools left drawn) and must
 * not reach other classes' campaigns.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RainOfItsOwn {

  private final String name;
  private final Map<String, String> overrides;

  RestartableRain rain;
  EmbeddedRedis redis;
  RainFixture fixture;

  /**
   * @param name names the schema and the snapshots' directory
   * @param overrides the service's settings the test changes
   */
  RainOfItsOwn(String name, Map<String, String> overrides) {
    this.name = name;
    this.overrides = overrides;
  }

  @BeforeAll
  final void startRain() throws IOException {
    rain = new RestartableRain(name, overrides);
    redis = rain.redis;
    fixture = rain.fixture;
  }

  @AfterAll
  final void stopRain() throws IOException {
    if (rain != null) {
      rain.close();
    }
  }
}

package hongbao.app.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Test JVMs running at once must not share an outside Redis database: each flushes its own when it
 * starts, which would wipe what another is in the middle of testing.
 */
class BackendsForkTest {

  @Test
  void theFirstJvm_keepsTheGivenDatabase() {
    assertThat(Backends.forkDatabase("redis://127.0.0.1:6379/5", 1))
        .isEqualTo("redis://127.0.0.1:6379/5");
  }

  @Test
  void theOthers_takeTheDatabasesAfterIt() {
    assertThat(Backends.forkDatabase("redis://127.0.0.1:6379/5", 2))
        .isEqualTo("redis://127.0.0.1:6379/6");
    assertThat(Backends.forkDatabase("redis://127.0.0.1:6379/5", 3))
        .isEqualTo("redis://127.0.0.1:6379/7");
  }

  @Test
  void withoutADatabase_theFirstIsZero() {
    assertThat(Backends.forkDatabase("redis://127.0.0.1:6379", 2))
        .isEqualTo("redis://127.0.0.1:6379/1");
  }

  @Test
  void theCredentialsAndOptions_stay() {
    assertThat(Backends.forkDatabase("rediss://:s%40cret@cache.internal:6380/3?timeout=5s", 2))
        .isEqualTo("rediss://:s%40cret@cache.internal:6380/4?timeout=5s");
  }

  @Test
  void aCluster_cannotBeSplitByDatabase() {
    assertThatThrownBy(() -> Backends.forkDatabase("redis-cluster://127.0.0.1:7000", 2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("redis-cluster");
  }

  @Test
  void theJvmNumber_isSurefires_orOneWithoutIt() {
    assertThat(Backends.fork("jvm-2")).isEqualTo(2);
    assertThat(Backends.fork("jvm-")).isEqualTo(1);
    assertThat(Backends.fork("")).isEqualTo(1);
    assertThat(Backends.fork("jvm-${surefire.forkNumber}")).isEqualTo(1);
    assertThatThrownBy(() -> Backends.fork("jvm-two")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Backends.fork("jvm-0")).isInstanceOf(IllegalStateException.class);
  }
}

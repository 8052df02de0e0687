package hongbao.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The start line names the servers in use, and never a password in their addresses. */
class StartLineTest {

  @Test
  void aRedisAddress_isLoggedWithoutItsCredentials() {
    assertThat(Hongbao.withoutCredentials("redis://ops:s3cret@10.0.0.5:6379/0"))
        .isEqualTo("redis://***@10.0.0.5:6379/0");
    assertThat(Hongbao.withoutCredentials("redis-cluster://:s3cret@a:7000,b:7001"))
        .isEqualTo("redis-cluster://***@a:7000,b:7001");
    assertThat(Hongbao.withoutCredentials("redis://127.0.0.1:6379"))
        .isEqualTo("redis://127.0.0.1:6379");
  }
}

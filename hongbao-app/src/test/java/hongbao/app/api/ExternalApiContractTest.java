package hongbao.app.api;

import hongbao.app.support.Backends;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/** The contract on the servers named by HONGBAO_TEST_REDIS_URL and HONGBAO_TEST_JDBC_URL. */
@EnabledIfEnvironmentVariable(named = "HONGBAO_TEST_JDBC_URL", matches = ".+")
@EnabledIfEnvironmentVariable(named = "HONGBAO_TEST_REDIS_URL", matches = ".+")
class ExternalApiContractTest extends ApiContractTest {

  @Override
  Backends backends() {
    return Backends.external();
  }
}

package hongbao.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layout is the architecture: core has no I/O and no dependency on anything but the JDK, and
 * the adapters know core, never each other.
 */
class ArchitectureTest {

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("hongbao");

  @Test
  void core_dependsOnTheJdkOnly_withoutIo() {
    noClasses()
        .that()
        .resideInAPackage("hongbao.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.io..",
            "java.nio..",
            "java.net..",
            "java.sql..",
            "javax.sql..",
            "io..",
            "org..",
            "com..",
            "hongbao.redis..",
            "hongbao.postgres..",
            "hongbao.http..",
            "hongbao.pinyin..",
            "hongbao.app..")
        .check(CLASSES);
  }

  @Test
  void adapters_dependOnCore_notOnEachOther() {
    noClasses()
        .that()
        .resideInAPackage("hongbao.pinyin..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "hongbao.redis..", "hongbao.postgres..", "hongbao.http..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.redis..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("hongbao.postgres..", "hongbao.http..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.postgres..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("hongbao.redis..", "hongbao.http..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.http..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("hongbao.redis..", "hongbao.postgres..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.kafka..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "hongbao.redis..",
            "hongbao.postgres..",
            "hongbao.http..",
            "hongbao.app..",
            "hongbao.sdk..")
        .check(CLASSES);
  }

  @Test
  void rewardSdk_needsNothingOfTheServiceButItsAdapters() {
    noClasses()
        .that()
        .resideInAPackage("hongbao.sdk..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("hongbao.postgres..", "hongbao.http..", "hongbao.app..")
        .check(CLASSES);
  }
}

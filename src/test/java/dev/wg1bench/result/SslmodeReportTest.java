package dev.wg1bench.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.plan.DriverKnobs;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sslmode a result reports is the one the run asked for, wherever it was asked. */
class SslmodeReportTest {
  private static DriverKnobs option(String mode) {
    return new DriverKnobs(mode, null, Map.of(), Map.of());
  }

  @Test
  void theUrlsSslmodeIsReportedAsAsked() {
    assertEquals(
        "disable (in the URL)",
        JmhResultMapper.sslmodeAsked(
            DriverKnobs.defaults(), "jdbc:postgresql://h:5432/db?sslmode=disable"));
    assertEquals(
        "require (in the URL)",
        JmhResultMapper.sslmodeAsked(
            DriverKnobs.defaults(), "jdbc:postgresql://h/db?ApplicationName=x&sslMode=require"));
  }

  @Test
  void theOptionWinsOverTheUrlAsPgjdbcLetsIt() {
    assertEquals(
        "verify-full",
        JmhResultMapper.sslmodeAsked(
            option("verify-full"), "jdbc:postgresql://h/db?sslmode=disable"));
  }

  @Test
  void sslTrueWithoutSslmodeIsPgjdbcsVerifyFull() {
    assertEquals(
        "verify-full (ssl=true in the URL)",
        JmhResultMapper.sslmodeAsked(DriverKnobs.defaults(), "jdbc:postgresql://h/db?ssl=true"));
  }

  @Test
  void nothingAskedIsPgjdbcsDefault() {
    assertEquals(
        "prefer (pgjdbc default)",
        JmhResultMapper.sslmodeAsked(DriverKnobs.defaults(), "jdbc:postgresql://h/db"));
  }
}

const DEG = Math.PI / 180;

/**
 * Solar elevation (degrees) at an instant, from latitude, longitude and the day of the year
 * (NOAA's simplified formulas: declination and equation of time from the fractional year).
 * The station's time zone matters through its longitude: local solar noon is near 12:00 local
 * standard time, an hour later in summer time.
 */
export function solarElevation(epochMs: number, latitude: number, longitude: number): number {
  const d = new Date(epochMs);
  const startOfYear = Date.UTC(d.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((epochMs - startOfYear) / 86_400_000) + 1;
  const utcHours = d.getUTCHours() + d.getUTCMinutes() / 60 + d.getUTCSeconds() / 3600;
  const gamma = ((2 * Math.PI) / 365) * (dayOfYear - 1 + (utcHours - 12) / 24);
  const eqTimeMin =
    229.18 *
    (0.000075 + 0.001868 * Math.cos(gamma) - 0.032077 * Math.sin(gamma) - 0.014615 * Math.cos(2 * gamma) - 0.040849 * Math.sin(2 * gamma));
  const decl =
    0.006918 - 0.399912 * Math.cos(gamma) + 0.070257 * Math.sin(gamma) - 0.006758 * Math.cos(2 * gamma) +
    0.000907 * Math.sin(2 * gamma) - 0.002697 * Math.cos(3 * gamma) + 0.00148 * Math.sin(3 * gamma);
  const trueSolarMin = utcHours * 60 + eqTimeMin + 4 * longitude;
  const hourAngle = (trueSolarMin / 4 - 180) * DEG;
  const lat = latitude * DEG;
  const sinElev = Math.sin(lat) * Math.sin(decl) + Math.cos(lat) * Math.cos(decl) * Math.cos(hourAngle);
  return Math.asin(Math.max(-1, Math.min(1, sinElev))) / DEG;
}

/** Clear-sky global horizontal irradiance (W/m², Haurwitz model); 0 with the sun below the horizon. */
export function clearSkyIrradiance(elevationDeg: number): number {
  if (elevationDeg <= 0) return 0;
  const s = Math.sin(elevationDeg * DEG);
  return 1098 * s * Math.exp(-0.057 / s);
}

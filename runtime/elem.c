/* Element storage on the host: the GPU's rounding to bf16, f16 and fp8, typed access to arrays. */
#include <math.h>
#include <string.h>

#include "runtime/runtime.h"

uint16_t
bf16_from_f32(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	if ((u & 0x7fffffff) > 0x7f800000)
		return (uint16_t)((u >> 16) | 0x40); /* keep it a NaN: quiet it */
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

float
bf16_to_f32(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

uint16_t
f16_from_f32(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	uint32_t ax = x & 0x7fffffff;
	if (ax > 0x7f800000)
		return sign | 0x7e00;
	/* 65520 is halfway between the largest half (65504) and 65536; ties go to even, up. */
	if (ax >= 0x477ff000)
		return sign | 0x7c00;
	if (ax < 0x38800000) {
		/* Subnormal: count units of 2^-24; scaling by a power of two is exact, and lrintf
		 * rounds to nearest even. 1024 units is the smallest normal, encoded the same. */
		return sign | (uint16_t)lrintf(fabsf(f) * 16777216.0f);
	}
	uint32_t r = ax - ((uint32_t)(127 - 15) << 23);
	r += 0xfff + ((r >> 13) & 1);
	return sign | (uint16_t)(r >> 13);
}

float
f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t e = (h >> 10) & 0x1f, man = h & 0x3ff;
	float f;
	if (e == 0) {
		f = ldexpf((float)man, -24);
		return sign ? -f : f;
	}
	uint32_t u = sign | (e == 31 ? 0x7f800000 | (man << 13) : ((e + 112) << 23) | (man << 13));
	memcpy(&f, &u, 4);
	return f;
}

double
elem_get(Type t, const void *p, int64_t i)
{
	switch (t) {
	case TY_F32:
		return ((const float *)p)[i];
	case TY_BF16:
		return bf16_to_f32(((const uint16_t *)p)[i]);
	case TY_F16:
		return f16_to_f32(((const uint16_t *)p)[i]);
	case TY_F8E4M3:
	case TY_F8E5M2:
		return f8_decode(t, ((const uint8_t *)p)[i]);
	case TY_I64:
		return (double)((const int64_t *)p)[i];
	case TY_I32:
		return ((const int32_t *)p)[i];
	case TY_I8:
		return ((const int8_t *)p)[i];
	case TY_BOOL:
		return ((const uint8_t *)p)[i] != 0;
	default:
		return NAN;
	}
}

static double
clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void
elem_set(Type t, void *p, int64_t i, double v)
{
	switch (t) {
	case TY_F32:
		((float *)p)[i] = (float)v;
		break;
	case TY_BF16:
		((uint16_t *)p)[i] = bf16_from_f32((float)v);
		break;
	case TY_F16:
		((uint16_t *)p)[i] = f16_from_f32((float)v);
		break;
	case TY_F8E4M3: /* from f32, as the GPU's stores convert */
	case TY_F8E5M2:
		((uint8_t *)p)[i] = f8_encode(t, (float)v);
		break;
	case TY_I64:
		((int64_t *)p)[i] = (int64_t)clampd(nearbyint(v), -9.2e18, 9.2e18);
		break;
	case TY_I32:
		((int32_t *)p)[i] = (int32_t)clampd(nearbyint(v), INT32_MIN, INT32_MAX);
		break;
	case TY_I8:
		((int8_t *)p)[i] = (int8_t)clampd(nearbyint(v), -128, 127);
		break;
	case TY_BOOL:
		((uint8_t *)p)[i] = v != 0;
		break;
	default:
		break;
	}
}

int64_t
shape_count(Shape s, int64_t M, int64_t N)
{
	switch (s) {
	case SH_TILE:
		return M * N;
	case SH_ROW:
		return M;
	case SH_VEC:
		return N;
	default:
		return 1;
	}
}

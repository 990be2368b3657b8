/* Lists every OpenCL platform the ICD loader finds and their devices, with the properties a
 * user picks a device by. Exits non-zero when the amcl platform is missing or has no device. */
#include "sample_common.h"

static void print_device(cl_device_id d) {
  char name[256] = "", version[128] = "", driver[64] = "", c_version[128] = "";
  cl_uint units = 0, clock = 0;
  cl_ulong global = 0, local = 0, max_alloc = 0;
  size_t wg = 0, ext_len = 0;
  clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(d, CL_DEVICE_VERSION, sizeof version, version, NULL);
  clGetDeviceInfo(d, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
  clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_VERSION, sizeof c_version, c_version, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock, &clock, NULL);
  clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
  clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_len);
  char* ext = malloc(ext_len + 1);
  ext[0] = 0;
  clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, ext_len, ext, NULL);
  unsigned n_ext = 0;
  for (const char* p = ext; *p;) {
    while (*p == ' ') ++p;
    if (!*p) break;
    ++n_ext;
    while (*p && *p != ' ') ++p;
  }
  printf("    %s\n      %s, driver %s, %s\n", name, version, driver, c_version);
  printf("      %u compute units at %u MHz, %.1f GiB global (max allocation %.1f GiB), %llu KiB local,\n"
         "      work-groups up to %zu, %u extensions\n",
         units, clock, global / 1073741824.0, max_alloc / 1073741824.0, (unsigned long long)(local / 1024),
         wg, n_ext);
  free(ext);
}

int main(void) {
  cl_platform_id platforms[16];
  cl_uint n = 0;
  CHECK(clGetPlatformIDs(16, platforms, &n));
  int amcl_devices = 0;
  for (cl_uint i = 0; i < n && i < 16; ++i) {
    char name[128] = "", vendor[128] = "", version[128] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    clGetPlatformInfo(platforms[i], CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
    clGetPlatformInfo(platforms[i], CL_PLATFORM_VERSION, sizeof version, version, NULL);
    cl_device_id devices[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS) nd = 0;
    printf("platform %u: %s (%s), %s, %u device(s)\n", i, name, vendor, version, nd);
    for (cl_uint j = 0; j < nd && j < 16; ++j) print_device(devices[j]);
    if (strcmp(name, "amcl") == 0) amcl_devices += (int)nd;
  }
  if (!amcl_devices) fprintf(stderr, "no amcl device found (is OCL_ICD_VENDORS set?)\n");
  return amcl_devices ? 0 : 1;
}
